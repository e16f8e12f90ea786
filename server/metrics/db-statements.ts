// Counts the statements each pooled PostgreSQL connection sends
// (taxi_db_statements_total). pg has no hook or event for a query, so the
// connection's own `query` is wrapped once, when the pool opens it; every
// caller (Prisma's adapter, the raw driver, pool.query) goes through it.
// A round trip costs about what a small statement's work does on our
// machines, which makes statements per request the figure to watch
// (docs/performance.md, docs/metrics.md).
import type { PoolClient } from "pg";
import { metrics } from "./registry";

export function countStatements(client: PoolClient): void {
  const counter = metrics().dbStatements;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  // One statement at a time per connection, in the order sent. Prisma's
  // adapter sends a transaction's relation reads at once on its connection
  // (prisma/orm#29979); pg queues them, but warns that pg 9 will refuse them
  // (a DeprecationWarning on stderr at the first one). Callback and
  // submittable calls (the pool's own) are left as they are.
  let tail: Promise<unknown> = Promise.resolve();
  const counted = (...args: unknown[]): unknown => {
    counter.inc();
    const first = args[0] as { submit?: unknown } | null | undefined;
    if (typeof args[args.length - 1] === "function" || (typeof first === "object" && first !== null && typeof first.submit === "function")) return query(...args);
    const run = tail.then(
      () => query(...args),
      () => query(...args),
    );
    tail = run.catch(() => undefined);
    return run;
  };
  client.query = counted as PoolClient["query"];
}
