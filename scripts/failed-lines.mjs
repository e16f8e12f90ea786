// Prints the lines of a failed lane's log that name what failed (scripts/test.sh
// prints them at the very end of `npm test`, where a CI page that keeps only
// the output's tail still shows them): vitest's FAIL headers with the first
// lines of their errors, Playwright's failed tests, tsc's and ESLint's errors.
// When none of these is found, the log's last lines. At most 80 lines.
import { readFileSync } from "node:fs";
import { stripVTControlCharacters } from "node:util";

const MAX_LINES = 80;
const ERROR_LINES_AFTER_HEADER = 5;

// Without the reporters' colours.
const log = stripVTControlCharacters(readFileSync(process.argv[2], "utf8"));
const lines = log.split(/\r?\n/);

const headers = [
  /^\s*FAIL\s/, // vitest: "FAIL  integration  tests/x.test.ts > a test"
  /^\s*[×✘]\s/, // vitest's and Playwright's failed test lines
  /^\s+\d+\) \[/, // Playwright's list of failed tests: "  1) [chromium] › e2e/x.spec.ts:12:3 › ..."
  /error TS\d+:/, // tsc
  /^\s+\d+:\d+\s+error\s/, // ESLint
  /Unhandled (Rejection|Error)/, // vitest's errors outside a test
  /^\s*(Test Files|Tests|Errors)\s.*failed/, // vitest's summary
  /^\s+\d+ (failed|flaky)\b/, // Playwright's summary
];
const errorLine = /(Error|expected|Expected|Received|timed out|Timeout)/;

const picked = [];
const seen = new Set();
for (let i = 0; i < lines.length && picked.length < MAX_LINES; i++) {
  if (!headers.some((header) => header.test(lines[i]))) continue;
  const key = lines[i].trim();
  if (seen.has(key)) continue;
  seen.add(key);
  picked.push(lines[i]);
  // The first lines of its error, where the reporter prints them under the header.
  let taken = 0;
  for (let j = i + 1; j < lines.length && taken < ERROR_LINES_AFTER_HEADER; j++) {
    if (headers.some((header) => header.test(lines[j]))) break;
    if (errorLine.test(lines[j])) {
      picked.push(`    ${lines[j].trim()}`);
      taken++;
    }
    if (j - i > 40) break;
  }
}

const out = picked.length > 0 ? picked : lines.filter((line) => line.trim() !== "").slice(-20);
process.stdout.write(`${out.slice(0, MAX_LINES).join("\n")}\n`);
