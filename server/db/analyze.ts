// PGlite has no autovacuum: without ANALYZE its planner never learns how
// many rows a table holds, and plans for an empty database for ever (the
// board's page hash-joined all 10,000 active orders before its LIMIT:
// docs/performance.md). So this does autovacuum's analyze for the embedded
// database; PostgreSQL's autovacuum does it by itself.
//
// PGlite runs on the server's own thread, and a plain `ANALYZE` of the
// benchmark's database held it for 0.9–1.7 s (orders alone 0.5 s), every
// request waiting behind it: the PGlite soak showed every p99 at about a
// second in that minute (docs/performance.md, round four). So, as
// autovacuum does, only the tables changed by more than 10% since their last
// analysis are analysed, one statement per table, and with a sample of
// 3,000 rows instead of 30,000 (statistics target 10: the whole database in
// 0.13 s). Row counts and the few states an order takes are what the
// planner needs here, and those a small sample gives.
import { connection } from "../db";
import { log } from "../log";

const FIRST_AFTER_MS = 20_000;
const CHECK_EVERY_MS = 60_000;
const STATISTICS_TARGET = 10;

/** Tables never analysed, or changed by more than autovacuum's default threshold (50 rows + 10%) since. */
const DUE_TABLES = `
  SELECT s.relname AS name
    FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
   WHERE s.schemaname = 'public'
     AND (c.reltuples < 0 OR s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0))
   ORDER BY s.n_mod_since_analyze DESC`;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Analyses the tables that are due; returns their names. */
export async function analyzeDueTables(): Promise<string[]> {
  const pglite = connection().pglite;
  if (!pglite) return [];
  const due = (await pglite.query<{ name: string }>(DUE_TABLES)).rows.map((r) => r.name);
  for (const table of due) {
    // One simple-query message: no other statement runs between the SET and its RESET.
    await pglite.exec(`SET default_statistics_target = ${STATISTICS_TARGET}; ANALYZE ${quoteIdent(table)}; RESET default_statistics_target`);
    // Let waiting requests run between tables.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return due;
}

export function startPgliteAnalyze(): () => void {
  const conn = connection();
  if (conn.kind !== "pglite") return () => undefined;
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    const t0 = Date.now();
    analyzeDueTables()
      .then((tables) => {
        if (tables.length) log.debug("pglite: analysed", { tables, ms: Date.now() - t0 });
      })
      .catch((error: unknown) => log.warn("pglite: ANALYZE failed", error))
      .finally(() => void (running = false));
  };
  const first = setTimeout(run, FIRST_AFTER_MS);
  const every = setInterval(run, CHECK_EVERY_MS);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
