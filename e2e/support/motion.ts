// Waiting for the page to stand still instead of a fixed pause: the map
// glides to a region or a driver over several hundred milliseconds, and
// Leaflet tells the page nothing it could wait on. The element's position is
// read on every animation frame until it has not moved for `frames` frames.
import type { Locator, Page } from "@playwright/test";

export async function untilStill(locator: Locator, frames = 12): Promise<void> {
  await locator.evaluate(
    (element, needed) =>
      new Promise<void>((resolve) => {
        let last = element.getBoundingClientRect();
        let still = 0;
        const tick = () => {
          const box = element.getBoundingClientRect();
          still = Math.abs(box.x - last.x) < 0.5 && Math.abs(box.y - last.y) < 0.5 ? still + 1 : 0;
          last = box;
          if (still >= needed) resolve();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    frames,
  );
}

/** Fonts loaded and two frames painted: what a screenshot of a page just rendered needs. */
export async function painted(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
  });
}
