// The driver's app on a phone, for the specs of /driver: the interface as
// any client calls it (docs/driver-app.md), a phone's browser context, and
// the accessibility check the console's pages get (e2e/accessibility.spec.ts).
import AxeBuilder from "@axe-core/playwright";
import { devices, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { env } from "./env";

/**
 * An iPhone 13 (touch, a mobile user agent) in the project's Chromium, with its whole screen, 390×844 CSS pixels,
 * as the installed app has it (the profile's 390×664 is what Safari leaves between its bars).
 */
const { defaultBrowserType: _iphoneBrowser, ...iphone } = devices["iPhone 13"];
void _iphoneBrowser;
export const PHONE = { ...iphone, viewport: { width: 390, height: 844 } };

export async function driverApi<T>(key: string, method: "GET" | "POST", path: string, body?: Record<string, unknown>): Promise<{ status: number; body: T }> {
  const res = await fetch(`${env().baseUrl}/driver-app/v1/${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as T };
}

export async function phoneAt(browser: Browser, at: { lat: number; lon: number }): Promise<BrowserContext> {
  return browser.newContext({ ...PHONE, baseURL: env().baseUrl, geolocation: { latitude: at.lat, longitude: at.lon, accuracy: 8 }, permissions: ["geolocation"], locale: "ru-RU", timezoneId: "Europe/Moscow" });
}

/** Serious and critical WCAG 2.1 A/AA violations on the page as it stands, each with where. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
}

/** Great-circle distance in metres (the mean Earth radius, 6 371 008.8 m). */
export function metres(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}
