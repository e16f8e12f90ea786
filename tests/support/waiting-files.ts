// The database suites' files that mostly wait (a time-paced window, a
// simulated day at its speed-up, slow clients' cut-offs, offers' deadlines):
// `npm test` runs them in lanes of their own beside the other files of the
// same database (scripts/test.sh), since they use little of the cores while
// they wait. Chosen from the per-file wall and CPU times the timing reporter
// prints (tests/support/timing-reporter.ts): over 30 s of wall time with CPU
// under about a third of it on at least one database (docs/testing.md,
// "Lanes"). A file skipped on one database costs its lane nothing there.
export const WAITING_FILES = [
  "tests/integration/dispatch-simulator.test.ts",
  "tests/integration/dispatch-live-arm.test.ts",
  "tests/integration/dispatch-liveness.test.ts",
  "tests/integration/driver-meter.test.ts",
  "tests/integration/driver-hint.test.ts",
  "tests/integration/tracking.test.ts",
  "tests/reliability/dispatch-split.test.ts",
  "tests/reliability/faults-outbox.test.ts",
  "tests/security/first-start.test.ts",
  "tests/security/reports.test.ts",
  "tests/security/hardening.test.ts",
];

/**
 * TEST_FILES=waiting: only the waiting files of a project's include; TEST_FILES=others: all but them; unset: all.
 */
export function lane(include: string[], defaultExclude: readonly string[]): { include: string[]; exclude: string[] } {
  const exclude = [...defaultExclude];
  const which = process.env.TEST_FILES;
  if (which === "waiting") {
    const folders = include.map((glob) => glob.replace(/\*\*\/\*\.test\.ts$/, ""));
    return { include: WAITING_FILES.filter((file) => folders.some((folder) => file.startsWith(folder))), exclude };
  }
  if (which === "others") return { include, exclude: [...exclude, ...WAITING_FILES] };
  if (which) throw new Error(`TEST_FILES is "waiting", "others" or unset, not "${which}"`);
  return { include, exclude };
}
