// The files that mostly wait (a time-paced window, a simulated day at its
// speed-up, slow clients' cut-offs, offers' deadlines, a car driven at a real
// car's pace): `npm test` runs them in lanes of their own beside the other
// files of the same kind (scripts/test.sh), since they use little of the cores
// while they wait. Chosen from the per-file wall and CPU times the runs print
// (tests/support/timing-reporter.ts; Playwright's list reporter): the database
// files over 30 s of wall time with CPU under about a third of it on at least
// one database, the browser specs that wait on real time (docs/testing.md,
// "Lanes"). A file skipped on one database costs its lane nothing there.
export const WAITING_FILES = [
  "tests/integration/dispatch-simulator.test.ts",
  "tests/integration/dispatch-live-arm.test.ts",
  "tests/integration/dispatch-liveness.test.ts",
  "tests/integration/driver-meter.test.ts",
  "tests/integration/driver-hint.test.ts",
  "tests/integration/tracking.test.ts",
  // The demo's simulators at their real pace (PGlite only).
  "tests/integration/simulator.test.ts",
  "tests/reliability/dispatch-split.test.ts",
  "tests/reliability/faults-outbox.test.ts",
  "tests/security/first-start.test.ts",
  "tests/security/reports.test.ts",
  "tests/security/hardening.test.ts",
  // Long polls of 15 s and a wait for the streams' sweep (15 s).
  "tests/security/driver-streams.test.ts",
];

/**
 * The files that need the machine to themselves: `npm test` runs them after the lanes (TEST_FILES=alone). The
 * exchange's simulated participant reacts in simulated minutes; beside six lanes on a slow machine its engine fell
 * minutes behind, its takes came after the exchange's offers had gone, and the check failed (twice, CI 2026-11-27),
 * while it passed alone in 85-120 s on the same machine, with three busy cores' worth of other load too.
 */
export const ALONE_FILES = ["tests/integration/simulator-exchange.test.ts"];

/**
 * Files moved from the database lanes to the lane with room to spare: they run after the browser's waiting specs
 * (TEST_FILES=spare, each database in turn), by database. In a clean clone's run of 2026-11-28 that lane ended at
 * 500 s and the databases' other files at 817-833 s, the critical path; these are the longest of those (the fuzz
 * 81 s, PostgreSQL only; the crashes 52-74 s; the exchange API's 47 s on PostgreSQL).
 */
export const SPARE_FILES: Record<"pglite" | "postgres", string[]> = {
  pglite: ["tests/reliability/crash.test.ts"],
  postgres: ["tests/reliability/fuzz.test.ts", "tests/reliability/crash.test.ts", "tests/integration/exchange-api.test.ts"],
};

function spareFiles(): string[] {
  return SPARE_FILES[process.env.TEST_DB === "postgres" ? "postgres" : "pglite"];
}

/** The browser specs that wait on real time: offers left to time out, a car driven 5 s a step, waiting limits passing. */
export const WAITING_SPECS = ["driver-app-trip.spec.ts", "driver-away.spec.ts", "driver-app.spec.ts", "night-shift-attention.spec.ts"];

function which(variable: string): "waiting" | "others" | "alone" | "spare" | undefined {
  const value = process.env[variable];
  if (value === undefined || value === "") return undefined;
  if (value === "waiting" || value === "others" || value === "alone" || value === "spare") return value;
  throw new Error(`${variable} is "waiting", "others", "alone", "spare" or unset, not "${value}"`);
}

/**
 * A vitest project's files: TEST_FILES=waiting only the waiting files of its include; TEST_FILES=alone only the
 * files that need the machine to themselves; TEST_FILES=spare only the files moved to the lane with room;
 * TEST_FILES=others all but those three kinds; unset: all.
 */
export function lane(include: string[], defaultExclude: readonly string[]): { include: string[]; exclude: string[] } {
  const exclude = [...defaultExclude];
  const files = which("TEST_FILES");
  const folders = include.map((glob) => glob.replace(/\*\*\/\*\.test\.ts$/, ""));
  const inFolders = (list: readonly string[]) => list.filter((file) => folders.some((folder) => file.startsWith(folder)));
  if (files === "waiting") return { include: inFolders(WAITING_FILES), exclude };
  if (files === "alone") return { include: inFolders(ALONE_FILES), exclude };
  if (files === "spare") return { include: inFolders(spareFiles()), exclude };
  if (files === "others") return { include, exclude: [...exclude, ...WAITING_FILES, ...ALONE_FILES, ...spareFiles()] };
  return { include, exclude };
}

/** Playwright's specs: E2E_FILES=waiting only the waiting specs, E2E_FILES=others all but them; unset: all. */
export function specLane(): { testMatch: string | string[]; testIgnore: string[] } {
  const files = which("E2E_FILES");
  if (files === "waiting") return { testMatch: WAITING_SPECS.map((spec) => `**/${spec}`), testIgnore: [] };
  if (files === "others") return { testMatch: "**/*.spec.ts", testIgnore: WAITING_SPECS.map((spec) => `**/${spec}`) };
  return { testMatch: "**/*.spec.ts", testIgnore: [] };
}
