// Test fixtures: the started application's URL as baseURL, signing in
// through the page, and screenshots under test-results/screenshots/.
import path from "node:path";
import { test as base, expect, type Page, type Response } from "@playwright/test";
import { env, userOf, type Role } from "./env";
import { painted } from "./motion";

/** After an HTML page's navigation, waits for the page's script to have taken it over (app/components/hydrated.tsx). */
async function hydrated(page: Page, response: Response | null, waitUntil: string | undefined): Promise<void> {
  if (!response || waitUntil === "commit" || !(response.headers()["content-type"] ?? "").includes("text/html")) return;
  await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 20_000 });
}

export const test = base.extend<{ shot: (name: string) => Promise<void> }>({
  // Typed into a field before the page has come alive, text is lost to its state (a busy CI machine's flake):
  // every navigation of the test's page waits for the page's script first.
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      await hydrated(page, response, options?.waitUntil);
      return response;
    };
    await use(page);
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from the pattern
  baseURL: async ({}, use) => {
    await use(env().baseUrl);
  },
  shot: async ({ page }, use, testInfo) => {
    await use(async (name: string) => {
      await painted(page);
      await page.screenshot({ path: path.join(testInfo.project.outputDir, "screenshots", `${name}.png`), fullPage: false });
    });
  },
});

export { expect };

/** Signs in through the sign-in page. */
export async function signIn(page: Page, who: Role | { email: string; password: string }): Promise<void> {
  const { email, password } = typeof who === "string" ? userOf(who) : who;
  await page.goto("/signin");
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
}

export async function signInAdmin(page: Page): Promise<void> {
  const e = env();
  await signIn(page, { email: e.adminEmail, password: e.adminPassword });
}
