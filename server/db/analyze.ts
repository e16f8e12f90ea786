// PGlite has no autovacuum: without ANALYZE its planner never learns how
// many rows a table holds, and plans for an empty database for ever (the
// board's page hash-joined all 10,000 active orders before its LIMIT:
// docs/performance.md). The embedded database is analysed shortly after
// start-up and then every ANALYZE_MINUTES; PostgreSQL's autovacuum does this
// by itself.
import { connection } from "../db";
import { log } from "../log";

const FIRST_AFTER_MS = 20_000;
const ANALYZE_MINUTES = 10;

export function startPgliteAnalyze(): () => void {
  const conn = connection();
  if (conn.kind !== "pglite") return () => undefined;
  const run = () => {
    const t0 = Date.now();
    conn
      .query("ANALYZE")
      .then(() => log.debug("pglite: analysed", { ms: Date.now() - t0 }))
      .catch((error: unknown) => log.warn("pglite: ANALYZE failed", error));
  };
  const first = setTimeout(run, FIRST_AFTER_MS);
  const every = setInterval(run, ANALYZE_MINUTES * 60_000);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
