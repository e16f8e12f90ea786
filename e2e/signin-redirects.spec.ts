// The sign-in form follows ?next= only on the console's own origin
// (shared/safe-redirect.ts), in a real browser, which is what reads
// "/\evil.example" as another host. Before the fix the form followed any
// target that "starts with / and not //".
import { test, expect } from "./support/fixtures";
import { env, userOf } from "./support/env";

const HOSTILE = ["/\\evil.example", "/\\/evil.example", "//evil.example", "/%5cevil.example", "https://evil.example/orders", "javascript:alert(document.domain)", "/\t/evil.example", "\\\\evil.example"];

test.describe("the sign-in form's ?next=", () => {
  for (const target of HOSTILE) {
    test(`stays on the console for ${JSON.stringify(target)}`, async ({ page }) => {
      const origin = new URL(env().baseUrl).origin;
      const left: string[] = [];
      page.on("framenavigated", (frame) => {
        if (frame === page.mainFrame() && !frame.url().startsWith(origin)) left.push(frame.url());
      });
      page.on("dialog", (dialog) => {
        left.push(`dialog: ${dialog.message()}`);
        void dialog.dismiss();
      });
      const { email, password } = userOf("DISPATCHER");
      await page.goto(`/signin?next=${encodeURIComponent(target)}`);
      await page.locator('input[name="email"]').fill(email);
      await page.locator('input[name="password"]').fill(password);
      await page.locator('button[type="submit"]').click();
      await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
      await page.waitForLoadState("load");
      expect(left).toEqual([]);
      expect(new URL(page.url()).origin).toBe(origin);
    });
  }

  test("follows a path of the console", async ({ page }) => {
    const { email, password } = userOf("DISPATCHER");
    await page.goto(`/signin?next=${encodeURIComponent("/map")}`);
    await page.locator('input[name="email"]').fill(email);
    await page.locator('input[name="password"]').fill(password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((url) => url.pathname === "/map");
  });
});
