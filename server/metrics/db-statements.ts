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
  const counted = (...args: unknown[]): unknown => {
    counter.inc();
    return query(...args);
  };
  client.query = counted as PoolClient["query"];
}
