// Browser tests of the operator console, in Debian's Chromium (Playwright
// cannot download its own browsers here). One worker: the tests of a run
// share one started application (e2e/global-setup.ts) and its database;
// `npm test` runs the specs in two lanes (E2E_FILES), each with its own.
import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";
import { specLane } from "./tests/support/waiting-files";

// The old headless shell when installed (scripts/ensure-chromium.sh installs it): what Playwright itself
// runs headless, and lighter than the full browser's headless mode; E2E_CHROMIUM names another.
const chromium = process.env.E2E_CHROMIUM ?? (existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : "/usr/bin/chromium");

export default defineConfig({
  testDir: "e2e",
  // E2E_FILES=waiting|others: the specs that wait on real time, or the rest (npm test runs them in two lanes).
  ...specLane(),
  // Playwright empties its output folder when a run starts: lanes run at once need one each (scripts/test.sh).
  outputDir: process.env.E2E_OUTPUT_DIR ?? "test-results",
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  globalSetup: "./e2e/global-setup.ts",
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    launchOptions: {
      executablePath: chromium,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
    viewport: { width: 1440, height: 900 },
    locale: "ru-RU",
    timezoneId: "Europe/Moscow",
    screenshot: "only-on-failure",
    // A trace is recorded for every test and kept for the failed ones; `npm test` turns it off (E2E_TRACE=off):
    // recording costs the browser's CPU beside five other lanes, and a failed spec run again by hand has its trace.
    trace: process.env.E2E_TRACE === "off" ? "off" : "retain-on-failure",
    actionTimeout: 15_000,
  },
});
