// `tsx scripts/bench/position-statement.ts [--drivers=10000] [--runs=2]`
// (docs/performance.md, "The app's mark in the position's statement"): the
// position reports' statement (server/driver-app/position-write.ts) on the
// fleet's city, planned on every execution (an unnamed statement) against
// prepared (a named one, as the instance sends it), one statement after
// another from one client, for batches of 1, 5 and 50 reports; then
// PostgreSQL's own planning and execution times of one batch of each size.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { prepareDatabase } from "../../tests/support/exchange/db";
import { provisionFleet } from "./fleet-provision";

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const DRIVERS = arg("drivers", 10_000);
const RUNS = arg("runs", 2);

const made = await prepareDatabase("postgres", (prisma) => provisionFleet(prisma, { drivers: DRIVERS, freeOrders: 0, token: randomBytes(6).toString("hex") }));
const { POSITIONS_BATCH } = await import("../../server/driver-app/position-write");
const { MOVED_DEGREES } = await import("../../server/dispatch/liveness");
const client = new pg.Client({ connectionString: made.db.env.DATABASE_URL });
await client.connect();
try {
  const onShift = (await client.query<{ id: number; lat: number; lon: number }>("SELECT id, lat, lon FROM driver WHERE state <> 'OFFLINE' ORDER BY id")).rows;
  console.log(`${onShift.length} drivers on shift`);
  /** A batch of `size` consecutive drivers' reports, a few metres from where they are, as the instance binds it. */
  const batchOf = (size: number) => {
    const start = Math.floor(Math.random() * (onShift.length - size));
    const rows = onShift.slice(start, start + size);
    const at = new Date().toISOString();
    return [rows.map((r) => r.id), rows.map((r) => r.lat + 1e-5), rows.map((r) => r.lon), rows.map(() => 30), rows.map(() => 90), rows.map(() => at), rows.map(() => null), MOVED_DEGREES];
  };
  console.log("| reports a statement | unnamed: ms a statement | named (prepared): ms a statement |");
  console.log("|---:|---:|---:|");
  for (const size of [1, 5, 50]) {
    const count = size === 50 ? 300 : 1_500;
    const timed = async (named: boolean) => {
      const t0 = performance.now();
      for (let k = 0; k < count; k++) await client.query(named ? { name: "bench_positions", text: POSITIONS_BATCH.sql, values: batchOf(size) } : { text: POSITIONS_BATCH.sql, values: batchOf(size) });
      return (performance.now() - t0) / count;
    };
    const unnamed: number[] = [];
    const named: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      unnamed.push(await timed(false));
      named.push(await timed(true));
    }
    console.log(`| ${size} | ${unnamed.map((ms) => ms.toFixed(3)).join(", ")} | ${named.map((ms) => ms.toFixed(3)).join(", ")} |`);
  }
  for (const size of [1, 50]) {
    const plan = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, SUMMARY) ${POSITIONS_BATCH.sql}`, batchOf(size));
    const lines = plan.rows.map((r) => r["QUERY PLAN"]).filter((line) => /^(Planning|Execution) Time/.test(line));
    console.log(`${size} report(s): ${lines.join("; ")}`);
  }
} finally {
  await client.end();
  await made.db.drop();
}
