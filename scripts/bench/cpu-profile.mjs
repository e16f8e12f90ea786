// A CPU profile of the process that imports this (node --import), written to
// $BENCH_CPU_PROF_DIR/<pid>.cpuprofile when it exits: the same profile as
// `node --cpu-prof`, which Node 20 does not accept in NODE_OPTIONS (the
// benchmark starts the server through tests/support/server.ts, which only
// passes an environment).
import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";

const dir = process.env.BENCH_CPU_PROF_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 500 });
  session.post("Profiler.start");
  process.once("exit", () => {
    // On the main thread the inspector answers synchronously.
    session.post("Profiler.stop", (error, result) => {
      if (!error && result) writeFileSync(path.join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
