// Statements per request, on PostgreSQL: the server's own count of the
// statements it sent (taxi_db_statements_total, server/metrics/db-statements.ts)
// around a target's saturation run, after the outbox the run filled is
// delivered (an exchange registration's notifications are part of its
// cost), divided by the requests served. Unlike requests per second it does
// not move with the machine's load, and on these machines a round trip to the
// database costs about what a small statement's work does (docs/performance.md).
// The limit server sends one statement per request by construction.
import pg from "pg";
import { scrapeMetrics } from "./server";

export interface DbWork {
  /** The server's statements so far. */
  statements(): Promise<number>;
  /** Waits until no outbox message is due (at most `ms`). */
  outboxDrained(ms: number): Promise<void>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function dbWork(url: string, metricsUrl: string): Promise<DbWork> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    async statements() {
      return (await scrapeMetrics(metricsUrl)).get("taxi_db_statements_total") ?? 0;
    },
    async outboxDrained(ms) {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        const r = await client.query<{ n: string }>("SELECT count(*)::text AS n FROM outbox_message WHERE status = 'PENDING' AND next_attempt_at <= now() + interval '1 second'");
        if (Number(r.rows[0]?.n ?? 0) === 0) return;
        await sleep(200);
      }
    },
    close: () => client.end(),
  };
}
