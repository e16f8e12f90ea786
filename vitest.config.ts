import { configDefaults, defineConfig } from "vitest/config";
import { lane } from "./tests/support/waiting-files";
import path from "node:path";

// Unit tests need no server; integration tests share one started server per
// run (TEST_DB=pglite or postgres picks the database); reliability suites
// start their own. TEST_FILES=waiting|others splits the database suites'
// files into those that mostly wait and the rest (tests/support/waiting-files.ts).
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    fileParallelism: false,
    // Each file's CPU time beside its wall time at the end (tests/support/cpu-probe.ts, timing-reporter.ts).
    setupFiles: ["tests/support/cpu-probe.ts"],
    // The default output, and each file's time at the end (tests/support/timing-reporter.ts).
    reporters: ["default", "./tests/support/timing-reporter.ts"],
    projects: [
      {
        // The fast tier: every console procedure through createCaller on an
        // embedded database; no build, no server, no browser.
        extends: true,
        test: { name: "fast", include: ["tests/fast/**/*.test.ts"], globalSetup: ["tests/support/local-db-setup.ts"], testTimeout: 60_000, hookTimeout: 180_000 },
      },
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], globalSetup: ["tests/support/local-db-setup.ts"], testTimeout: 60_000, hookTimeout: 180_000 },
      },
      {
        extends: true,
        test: {
          name: "integration",
          ...lane(["tests/integration/**/*.test.ts"], configDefaults.exclude),
          // The files one after another in one process (each its own servers and databases, nothing set in
          // process.env): a fresh process and module graph a file cost ~0.6 s each, ~35 s a lane (docs/testing.md).
          isolate: false,
          globalSetup: ["tests/support/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        // Reliability and security (tests/reliability, tests/security): each
        // suite starts its own servers on a copy of one seeded template.
        extends: true,
        test: {
          name: "reliability",
          ...lane(["tests/reliability/**/*.test.ts", "tests/security/**/*.test.ts"], configDefaults.exclude),
          isolate: false,
          globalSetup: ["tests/reliability/support/global-setup.ts"],
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
