// scripts/failed-files.mjs decides what `npm test` runs again alone after
// its lanes (scripts/test.sh, round 4): the failed test files of a vitest run
// whose only failures are tests, Playwright's --last-failed; nothing (so the
// run stays failed) when anything else failed. The logs below are in the
// reporters' own form, as CI printed them on 2026-11-28.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const script = path.resolve(import.meta.dirname, "../../scripts/failed-files.mjs");
const folder = mkdtempSync(path.join(tmpdir(), "failed-files-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** What the script names for a vitest log, or for a Playwright output folder holding this .last-run.json. */
function failedOf(kind: "vitest" | "playwright", content: string): string[] {
  const file = path.join(folder, kind === "vitest" ? "log" : ".last-run.json");
  writeFileSync(file, content);
  return execFileSync(process.execPath, [script, kind, kind === "vitest" ? file : folder], { encoding: "utf8" }).split("\n").filter(Boolean);
}

const failedTest = (file: string) => `
 \u001b[31mFAIL\u001b[39m   reliability  ${file} > overload > refuses the excess
AssertionError: expected 17 to be greater than 60
 ❯ ${file}:104:30`;

describe("a vitest run's failed files", () => {
  it("names each failed file once, in any project, with colours or without", () => {
    const log = `${failedTest("tests/reliability/faults-overload.test.ts")}
 FAIL   reliability  tests/reliability/faults-overload.test.ts > overload > a second test
 FAIL  tests/security/first-start.test.ts [ tests/security/first-start.test.ts ]
Error: Hook timed out in 240000ms.
 Test Files  2 failed | 43 passed | 13 skipped (57)
      Tests  3 failed | 424 passed | 72 skipped (497)`;
    expect(failedOf("vitest", log)).toEqual(["tests/reliability/faults-overload.test.ts", "tests/security/first-start.test.ts"]);
  });

  it("names nothing when an error outside the tests failed the run", () => {
    const log = `${failedTest("tests/integration/a.test.ts")}
⎯⎯⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯⎯⎯
Error: [vitest-worker]: Timeout calling "onTaskUpdate"
 Test Files  1 failed | 10 passed (11)
     Errors  1 error`;
    expect(failedOf("vitest", log)).toEqual([]);
  });

  it("names nothing when the summary counts more failed files than it names (a run cut short, a crash)", () => {
    expect(failedOf("vitest", `${failedTest("tests/integration/a.test.ts")}\n Test Files  2 failed | 10 passed (12)`)).toEqual([]);
    expect(failedOf("vitest", `${failedTest("tests/integration/a.test.ts")}\nKilled`)).toEqual([]);
  });
});

describe("a Playwright run's failed tests", () => {
  it("runs the last failed again when tests failed", () => {
    expect(failedOf("playwright", JSON.stringify({ status: "failed", failedTests: ["a-1", "b-2"] }))).toEqual(["--last-failed", "# 2 tests"]);
  });

  it("runs nothing again when no test failed (the global setup did) or the run passed", () => {
    expect(failedOf("playwright", JSON.stringify({ status: "failed", failedTests: [] }))).toEqual([]);
    expect(failedOf("playwright", JSON.stringify({ status: "passed", failedTests: [] }))).toEqual([]);
  });
});
