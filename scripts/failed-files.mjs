// What a failed test run of `npm test` can run again alone (scripts/test.sh,
// "again"): prints one argument a line to add to the run's own command, and
// nothing when the failure is not only tests that failed (an error outside
// any test, a global setup that failed, a run cut short), which is then not
// run again.
//   node scripts/failed-files.mjs vitest <the run's log>
//     the failed test files, when their number is the summary's count of
//     failed files and vitest reported no error outside them;
//   node scripts/failed-files.mjs playwright <the run's output folder>
//     --last-failed, when Playwright's .last-run.json lists failed tests,
//     and a second line "# N tests" with their number.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";

const [kind, where] = process.argv.slice(2);

if (kind === "vitest") {
  const log = stripVTControlCharacters(readFileSync(where, "utf8"));
  // "FAIL  reliability  tests/x.test.ts > a test", or "FAIL  tests/x.test.ts [ tests/x.test.ts ]" for a file's setup.
  const files = new Set([...log.matchAll(/^\s*FAIL\s+(?:\S+\s+)?(tests\/\S+?\.test\.tsx?)(?=\s|$)/gm)].map((m) => m[1]));
  const summary = /^\s*Test Files\s+(\d+) failed/m.exec(log);
  const outside = /Unhandled (Errors?|Rejection)|Errors\s+\d+ errors?/.test(log);
  if (summary && Number(summary[1]) === files.size && files.size > 0 && !outside) process.stdout.write([...files].map((f) => `${f}\n`).join(""));
} else if (kind === "playwright") {
  const file = path.join(where, ".last-run.json");
  if (existsSync(file)) {
    const lastRun = JSON.parse(readFileSync(file, "utf8"));
    const failed = Array.isArray(lastRun.failedTests) ? lastRun.failedTests.length : 0;
    if (lastRun.status === "failed" && failed > 0) process.stdout.write(`--last-failed\n# ${failed} tests\n`);
  }
} else {
  process.stderr.write("usage: failed-files.mjs vitest <log> | playwright <output folder>\n");
  process.exit(2);
}
