// Warm-up before the listeners accept (docs/operations.md, "Faults"): a
// restart under load made the first requests wait up to 15 s while each
// loaded what the previous process had in memory. Before it serves, the
// instance opens its pooled connections, prepares the hottest statement on
// the embedded database, and loads the street index (server/geo) and the
// cities' road graphs (server/routing). A part that fails is logged and
// loads on first use, as before; none holds the start for more than
// WARM_UP_LIMIT_MS.
import { connection, type Db } from "../db";
import { prepareOnPglite } from "../db/prepared";
import { streetIndex } from "../geo/street-index";
import { ORDER_INFO } from "../orders/read-order";
import { warmRoadGraphs } from "../routing/graph-cache";

const WARM_UP_LIMIT_MS = 60_000;

async function openPool(): Promise<void> {
  const pool = connection().pool;
  if (!pool) return;
  const max = pool.options.max ?? 10;
  const clients = await Promise.allSettled(Array.from({ length: max }, () => pool.connect()));
  for (const c of clients) if (c.status === "fulfilled") c.value.release();
}

async function prepareStatements(): Promise<void> {
  const pglite = connection().pglite;
  if (pglite) await prepareOnPglite(pglite, ORDER_INFO);
}

function limited(work: Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([work, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("took too long")), WARM_UP_LIMIT_MS)))]).finally(() => clearTimeout(timer));
}

export async function warmUp(db: Db): Promise<{ ms: number; failed: string[] }> {
  const started = Date.now();
  const parts: Array<[string, () => Promise<unknown>]> = [
    ["database connections", openPool],
    ["prepared statements", prepareStatements],
    ["street index", () => streetIndex(db)],
    ["road graphs", () => warmRoadGraphs(db)],
  ];
  const failed: string[] = [];
  // One after another: on PGlite they share one session anyway.
  for (const [name, part] of parts) {
    await limited(part()).catch(() => failed.push(name));
  }
  return { ms: Date.now() - started, failed };
}
