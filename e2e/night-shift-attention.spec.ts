// Issue 34's orders that need a person: an administrator sets how long each
// kind of wait may last (audited); on the board an order's age turns amber,
// then red, the tab's title counts the orders that need a hand, the overdue
// alarm sounds (a recorded Web Audio stub: what the page asked the speakers
// to play) and, with the tab hidden, a desktop notification is shown.
import type { Page } from "@playwright/test";
import { test, expect, signIn, signInAdmin } from "./support/fixtures";
import { env } from "./support/env";
import { apiCreateOrder, signInApi, trpc, uniquePhone, type Session } from "./support/console-api";
import { rowByPhone, waitLive } from "./support/board";

interface Limit {
  kind: string;
  amberSeconds: number;
  redSeconds: number;
}

async function admin(): Promise<Session> {
  const e = env();
  return signInApi(e.baseUrl, e.adminEmail, e.adminPassword);
}

async function limitsNow(session: Session): Promise<Limit[]> {
  return (await trpc<Limit[]>(env().baseUrl, session, "orders.ageLimits", undefined)).data ?? [];
}

async function setLimit(session: Session, limit: Limit): Promise<void> {
  const res = await trpc(env().baseUrl, session, "orders.saveAgeLimit", limit, "mutation");
  if (res.error) throw new Error(res.error.message);
}

/** Records the tones the page plays and the notifications it shows; the tab's visibility is the test's to set. */
async function recordAlarms(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __tones: number[]; __notes: string[]; __hidden: boolean };
    w.__tones = [];
    w.__notes = [];
    w.__hidden = false;
    Object.defineProperty(document, "hidden", { configurable: true, get: () => w.__hidden });
    const Real = window.AudioContext;
    class Recording extends Real {
      createOscillator(): OscillatorNode {
        const osc = super.createOscillator();
        const start = osc.start.bind(osc);
        osc.start = (when?: number) => {
          w.__tones.push(osc.frequency.value);
          start(when);
        };
        return osc;
      }
    }
    window.AudioContext = Recording;
    class FakeNotification {
      static permission = "granted";
      static requestPermission = async () => "granted";
      constructor(title: string, options?: { body?: string }) {
        w.__notes.push(`${title} | ${options?.body ?? ""}`);
      }
    }
    (window as unknown as { Notification: unknown }).Notification = FakeNotification;
  });
}

const SCREENS = [
  { lang: "ru" as const, width: 1366, height: 768, title: "Заказы", overdue: "Ждут слишком долго", needTab: "Ждут человека", active: "Активные" },
  { lang: "en" as const, width: 1920, height: 1080, title: "Orders", overdue: "Waiting too long", needTab: "Need a hand", active: "Active" },
];

test.describe("waiting limits", () => {
  let saved: Limit[] = [];
  test.beforeAll(async () => {
    saved = await limitsNow(await admin());
  });
  test.afterAll(async () => {
    const session = await admin();
    for (const l of saved) await setLimit(session, l);
  });

  test("an administrator sets a kind's limits in the reference data; the change is audited; amber after red is refused", async ({ page, shot }) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await signInAdmin(page);
    await page.goto("/reference/ages");
    const row = page.getByTestId("age-limits").locator('tr[data-kind="RADIO"]');
    await row.getByRole("textbox", { name: /Жёлтый/ }).fill("500");
    await row.getByRole("textbox", { name: /Красный/ }).fill("400");
    await row.getByRole("button", { name: "Сохранить" }).click();
    await expect(row.getByRole("alert")).toContainText("Красный порог должен быть больше жёлтого");
    await row.getByRole("textbox", { name: /Красный/ }).fill("900");
    await row.getByRole("button", { name: "Сохранить" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Пороги «В эфире» сохранены" })).toBeVisible();
    await shot("age-limits-admin");

    const session = await admin();
    expect((await limitsNow(session)).find((l) => l.kind === "RADIO")).toMatchObject({ amberSeconds: 500, redSeconds: 900 });
    const audit = await trpc<{ items: Array<{ action: string; details: { ok: boolean; changes?: unknown } }> }>(env().baseUrl, session, "admin.audit", { entity: "orderAgeLimit", limit: 10 });
    const rows = audit.data?.items ?? [];
    expect(rows.some((r) => r.action === "orders.saveAgeLimit" && r.details.ok)).toBe(true);
    expect(rows.some((r) => r.action === "orders.saveAgeLimit" && !r.details.ok)).toBe(true);
  });

  for (const screen of SCREENS) {
    test(`an order past its limit turns amber, then red; the title counts it; the alarm sounds and, hidden, notifies (${screen.lang}, ${screen.width}×${screen.height})`, async ({ page, shot }) => {
      const { baseUrl, apiKey } = env();
      const session = await admin();
      await setLimit(session, { kind: "FREE", amberSeconds: 3, redSeconds: 8 });
      await page.setViewportSize({ width: screen.width, height: screen.height });
      await recordAlarms(page);
      await page.context().addCookies([{ name: "locale", value: screen.lang, url: baseUrl }]);
      await signIn(page, "DISPATCHER");
      await waitLive(page);
      // The page has had its first answer: what is red already is not news.
      await expect(page).toHaveTitle(new RegExp(`^\\(\\d+\\) ${screen.title}$`));

      const phone = uniquePhone();
      await page.evaluate(() => ((window as unknown as { __hidden: boolean }).__hidden = true));
      await apiCreateOrder(baseUrl, apiKey, { phone, street: "ул. Мира", house: "1", moderation_required: "no" });
      const row = rowByPhone(page, phone);
      await expect(row).toHaveAttribute("data-state", "FREE");
      await expect(row).toHaveAttribute("data-age-level", "amber", { timeout: 8_000 });
      await shot(`age-amber-${screen.lang}-${screen.width}`);
      await expect(row).toHaveAttribute("data-age-level", "red", { timeout: 10_000 });
      await expect(row.locator(".cell-age")).toHaveText(/^\d+:\d\d$/);

      // The title and the header count the same orders; the overdue tone played; hidden, a notification.
      const pill = page.getByTestId("need-hand");
      await expect(pill).toBeVisible();
      const count = Number((await pill.textContent())?.match(/\d+/)?.[0]);
      expect(count).toBeGreaterThan(0);
      await expect(page).toHaveTitle(new RegExp(`^\\(\\d+\\) ${screen.title}$`));
      await expect.poll(() => page.evaluate(() => (window as unknown as { __tones: number[] }).__tones), { timeout: 12_000 }).toContain(520);
      await expect.poll(() => page.evaluate(() => (window as unknown as { __notes: string[] }).__notes.join("\n")), { timeout: 12_000 }).toContain(screen.overdue);
      await shot(`age-red-${screen.lang}-${screen.width}`);

      // The "need a hand" tab holds it (with the map's orders with problems), the longest wait first.
      await page.getByRole("tab", { name: new RegExp(`^${screen.needTab}`) }).click();
      await expect(page.getByTestId("order-grid").locator(".grid-row[data-order-id]").first()).toHaveAttribute("data-age-level", "red");
      await shot(`need-hand-tab-${screen.lang}-${screen.width}`);
      // Ours waited least of the red ones: at the end of the list (End, by keyboard).
      await page.getByTestId("order-grid").focus();
      await page.keyboard.press("End");
      await expect(rowByPhone(page, phone)).toHaveAttribute("data-age-level", "red");
      await page.getByRole("tab", { name: new RegExp(`^${screen.active}`) }).click();

      // Sound off (remembered for this user): no tone for the next order past its limit.
      await page.getByRole("button", { name: /Звук|Sound/ }).click();
      await expect(page.getByRole("button", { name: /Звук|Sound/ })).toHaveAttribute("aria-pressed", "false");
      await page.evaluate(() => ((window as unknown as { __tones: number[] }).__tones = []));
      await apiCreateOrder(baseUrl, apiKey, { phone: uniquePhone(), street: "ул. Мира", house: "2", moderation_required: "no" });
      await page.waitForTimeout(12_000);
      expect(await page.evaluate(() => (window as unknown as { __tones: number[] }).__tones)).toEqual([]);
      await page.reload();
      await expect(page.getByRole("button", { name: /Звук|Sound/ })).toHaveAttribute("aria-pressed", "false");
      await page.getByRole("button", { name: /Звук|Sound/ }).click();
    });
  }
});
