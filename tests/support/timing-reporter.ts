// Prints, at the end of a vitest run, how long each test file took (wall
// clock from its start to its end, slowest first), the CPU time it used
// (its worker and the servers it started and stopped: cpu-probe.ts, on
// Linux), and what the run spent outside the files (global setups: the
// template database, the shared server; teardown). `npm test` prints it at
// the end of each lane, so the suite's critical path and where its CPU goes
// can be read from one run (docs/testing.md).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export default class TimingReporter implements Reporter {
  // Where the workers' probes write (inherited by the workers, which start after the reporter).
  private readonly cpuDir = (process.env.TEST_CPU_DIR = mkdtempSync(path.join(tmpdir(), "test-cpu-")));
  private runStarted = 0;
  private readonly started = new Map<string, number>();
  private readonly wall = new Map<string, number>();

  onTestRunStart(): void {
    this.runStarted = performance.now();
  }

  onTestModuleStart(testModule: TestModule): void {
    this.started.set(testModule.moduleId, performance.now());
  }

  onTestModuleEnd(testModule: TestModule): void {
    const start = this.started.get(testModule.moduleId);
    if (start !== undefined) this.wall.set(testModule.moduleId, performance.now() - start);
  }

  /** Each file's CPU seconds as its probe wrote them, by file path. */
  private cpuByFile(): Map<string, number> {
    const cpu = new Map<string, number>();
    try {
      for (const name of readdirSync(this.cpuDir)) {
        const entry = JSON.parse(readFileSync(path.join(this.cpuDir, name), "utf8")) as { file: string; cpuSeconds: number };
        cpu.set(entry.file, entry.cpuSeconds);
      }
      rmSync(this.cpuDir, { recursive: true, force: true });
    } catch {
      // No figures: the column shows none.
    }
    return cpu;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (testModules.length === 0) return;
    const total = performance.now() - this.runStarted;
    const cpu = this.cpuByFile();
    const rows = testModules
      .map((m) => ({ file: path.relative(process.cwd(), m.moduleId), project: m.project.name, ms: this.wall.get(m.moduleId) ?? m.diagnostic().duration, cpu: cpu.get(m.moduleId), state: m.state() }))
      .sort((a, b) => b.ms - a.ms);
    const inFiles = rows.reduce((sum, r) => sum + r.ms, 0);
    const cpuInFiles = rows.reduce((sum, r) => sum + (r.cpu ?? 0), 0);
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1).padStart(7)} s`;
    const cpuCell = (s: number | undefined) => (s === undefined ? "      —  " : `${s.toFixed(1).padStart(7)} s`);
    const lines = [
      "",
      `Time by test file (${process.env.TEST_DB ? `TEST_DB=${process.env.TEST_DB}, ` : ""}slowest first; wall clock, then CPU: the file's process and the servers it started and stopped):`,
      ...rows.map((r) => `${seconds(r.ms)}  ${cpuCell(r.cpu)}  ${r.project.padEnd(11)} ${r.file}${r.state === "failed" ? "  (failed)" : r.state === "skipped" ? "  (skipped)" : ""}`),
      `${seconds(total)}  ${cpuCell(cpu.size > 0 ? cpuInFiles : undefined)}  in all: ${seconds(inFiles).trim()} in the files, ${seconds(total - inFiles).trim()} in global setup, teardown and collection`,
      "",
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  }
}
