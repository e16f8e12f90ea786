// Each test file's CPU time, for the timing reporter (timing-reporter.ts):
// the seconds its worker process spent and those of the processes it started
// and waited for (the servers it stopped), read from /proc/self/stat when
// the file starts and after its own hooks have run. A file's wall time alone
// does not say what dropping or sharing its work would save: a time-paced
// check waits while the other lanes compute (docs/testing.md).
// Linux only: elsewhere nothing is recorded. A file's worker is its own
// process (vitest's forks pool, isolated), and the files of a lane run one
// at a time, so the difference is that file's alone.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll } from "vitest";

/** The kernel reports these times in USER_HZ, 100 a second on every Linux ABI Node.js runs on. */
const TICKS_PER_SECOND = 100;

/** utime + stime + cutime + cstime of this process, in seconds; null off Linux. */
function processCpuSeconds(): number | null {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    // After the command's ")" come field 3 (state) onwards: utime is field 14, cstime field 17.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

const atStart = processCpuSeconds();

// Registered first, so with vitest's stack order it runs after the file's own afterAll hooks (its servers stopped).
afterAll((file) => {
  const dir = process.env.TEST_CPU_DIR;
  const now = processCpuSeconds();
  if (!dir || atStart === null || now === null || !("filepath" in file)) return;
  const filepath = String(file.filepath);
  const name = createHash("sha1").update(filepath).digest("hex");
  writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ file: filepath, cpuSeconds: now - atStart }));
});
