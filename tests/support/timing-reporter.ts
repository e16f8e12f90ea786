// Prints, at the end of a vitest run, how long each test file took (wall
// clock from its start to its end, slowest first) and what the run spent
// outside the files (global setups: the template database, the shared
// server; teardown). `npm test` prints it at the end of each lane, so the
// suite's critical path can be read from one run (docs/testing.md).
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export default class TimingReporter implements Reporter {
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

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (testModules.length === 0) return;
    const total = performance.now() - this.runStarted;
    const rows = testModules
      .map((m) => ({ file: path.relative(process.cwd(), m.moduleId), project: m.project.name, ms: this.wall.get(m.moduleId) ?? m.diagnostic().duration, state: m.state() }))
      .sort((a, b) => b.ms - a.ms);
    const inFiles = rows.reduce((sum, r) => sum + r.ms, 0);
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1).padStart(7)} s`;
    const lines = [
      "",
      `Time by test file (${process.env.TEST_DB ? `TEST_DB=${process.env.TEST_DB}, ` : ""}slowest first):`,
      ...rows.map((r) => `${seconds(r.ms)}  ${r.project.padEnd(11)} ${r.file}${r.state === "failed" ? "  (failed)" : r.state === "skipped" ? "  (skipped)" : ""}`),
      `${seconds(total)}  in all: ${seconds(inFiles).trim()} in the files, ${seconds(total - inFiles).trim()} in global setup, teardown and collection`,
      "",
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  }
}
