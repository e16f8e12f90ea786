// The outbox under slow and failing receivers (issue 33), over real HTTP
// against one started server, on PGlite and PostgreSQL:
//   - two integrators, one whose receiver takes 25 s a request (longer than
//     our 10 s deadline), one fast: with 800 of the slow one's callbacks due
//     (more than a claim scans) and more piling up,
//     each of the fast one's callbacks arrives within seconds of its order.
//     Before the fix the worker delivered in batches of 20 and the next batch
//     waited for the slowest: the fast callbacks waited for the slow deadline;
//   - a callback that keeps failing is not given up after about an hour (60
//     attempts): a message two hours old after its 60th failed attempt is
//     still pending, its next attempt far ahead; one older than the horizon
//     (OUTBOX_RETRY_HOURS, 72 h) is given up.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueApiKey } from "@/server/auth/api-keys";
import type { TestDatabase } from "./support/db";
import { dispatchClient, type DispatchClient } from "./support/dispatch";
import { closeAgents, until } from "./support/http";
import { freshDatabase, startInstance, type AppInstance } from "./support/instance";

interface Receiver {
  url: string;
  hits: Array<{ path: string; at: number }>;
  close(): Promise<void>;
}

/** An HTTP receiver answering 200 after `delayMs` (or `status` at once). */
async function receiver(delayMs: number, status = 200): Promise<Receiver> {
  const hits: Receiver["hits"] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    hits.push({ path: req.url ?? "/", at: Date.now() });
    req.resume();
    const answer = () => {
      if (!res.destroyed) res.writeHead(status, { "content-type": "text/plain" }).end("ok");
    };
    if (delayMs <= 0) return answer();
    const timer = setTimeout(() => {
      timers.delete(timer);
      answer();
    }, delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let database: TestDatabase;
let app: AppInstance;
let slow: Receiver;
let fast: Receiver;
let failing: Receiver;
let slowApi: DispatchClient;
let fastApi: DispatchClient;
const slowKey = `outbox-slow-${randomUUID()}`;
const fastKey = `outbox-fast-${randomUUID()}`;
const oldTarget = () => `${failing.url}/old-but-kept`;
const expiredTarget = () => `${failing.url}/past-horizon`;

beforeAll(async () => {
  slow = await receiver(25_000);
  fast = await receiver(0);
  failing = await receiver(0, 503);
  database = await freshDatabase();
  await database.use(async (prisma, query) => {
    await issueApiKey(prisma, { name: "slow integrator", key: slowKey, callbackTemplate: `${slow.url}/cb/%uuid%/%status_code%` });
    await issueApiKey(prisma, { name: "fast integrator", key: fastKey, callbackTemplate: `${fast.url}/cb/%uuid%/%status_code%` });
    // Two failing callbacks, as if retried for a while already: 59 attempts over two hours, and one past the horizon.
    for (const [target, hours] of [[oldTarget(), 2], [expiredTarget(), 73]] as const) {
      await query(
        `INSERT INTO outbox_message (delivery_id, channel, topic, ordering_key, target, payload, attempts, next_attempt_at, created_at)
         VALUES ($1::uuid, 'callback', 'status', $2, $3, '{}'::jsonb, 59, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC' - $4 * interval '1 hour')`,
        [randomUUID(), `old:${target}`, target, hours],
      );
    }
    // A backlog for the slow receiver, larger than what one claim scans: all due at once.
    await query(
      `INSERT INTO outbox_message (delivery_id, channel, topic, ordering_key, target, payload, created_at)
       SELECT gen_random_uuid(), 'callback', 'status', 'backlog:' || i, $1 || '/backlog/' || i, '{}'::jsonb, now() AT TIME ZONE 'UTC'
         FROM generate_series(1, 800) AS i`,
      [slow.url],
    );
  });
  app = await startInstance(database, { env: { RATE_LIMIT_PER_KEY: "0", RATE_LIMIT_PER_ADDRESS: "0", OUTBOX_POLL_MS: "100" } });
  slowApi = dispatchClient(app.url, slowKey);
  fastApi = dispatchClient(app.url, fastKey);
}, 300_000);

afterAll(async () => {
  closeAgents();
  await app?.stop();
  await Promise.all([slow?.close(), fast?.close(), failing?.close()]);
  await database?.drop();
});

const order = { phone: "89161234567", street: "ул. Ленина", house: "2", moderation_required: "no", need_notify: "no" };

describe("one slow receiver does not hold back another", () => {
  it("the fast integrator's callbacks arrive within seconds while the slow one's receiver hangs", async () => {
    // More slow callbacks than the old batch (20), all due before the fast ones.
    const slowOrders = await Promise.all(Array.from({ length: 30 }, () => slowApi.post<{ uuid: string }>("order", order)));
    for (const r of slowOrders) expect(r.status, JSON.stringify(r.error)).toBe("DONE");
    await until("the slow receiver is busy", () => slow.hits.length >= 1);

    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      const created = await fastApi.post<{ uuid: string }>("order", order);
      expect(created.status, JSON.stringify(created.error)).toBe("DONE");
      const sent = Date.now();
      const hit = await until(`fast callback ${i}`, () => fast.hits.find((h) => h.path.includes(created.response.uuid)), 30_000, 20);
      delays.push(hit.at - sent);
      // Spread over the slow receiver's stall, new slow ones keep coming too.
      await slowApi.post("order", order);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    console.log(`fast callbacks after their orders (ms): ${delays.join(", ")}; slow receiver hits so far: ${slow.hits.length}`);
    // The slow receiver was still stuck on its first requests meanwhile (25 s each, cut at 10 s).
    expect(Math.max(...delays)).toBeLessThan(3_000);
  });
});

describe("failing callbacks are retried for days", () => {
  it("a two-hour-old callback after its 60th failure is still pending, its next attempt far ahead; one past the horizon is given up", async () => {
    await until("both old callbacks tried", () => failing.hits.some((h) => h.path === "/old-but-kept") && failing.hits.some((h) => h.path === "/past-horizon"));
    // PGlite opens only while no server runs on it.
    await app.kill("SIGTERM");
    await database.use(async (_prisma, query) => {
      const rows = await query<{ target: string; status: string; attempts: number; ahead: number }>(
        `SELECT target, status::text AS status, attempts, EXTRACT(EPOCH FROM next_attempt_at - now() AT TIME ZONE 'UTC')::float8 AS ahead
           FROM outbox_message WHERE target IN ($1, $2)`,
        [oldTarget(), expiredTarget()],
      );
      const kept = rows.find((r) => r.target === oldTarget())!;
      const expired = rows.find((r) => r.target === expiredTarget())!;
      expect(kept.attempts).toBe(60);
      expect(kept.status).toBe("PENDING");
      // The backoff has reached its cap (an hour, half of it jitter).
      expect(kept.ahead).toBeGreaterThan(25 * 60);
      expect(kept.ahead).toBeLessThan(61 * 60);
      expect(expired.status).toBe("FAILED");
    });
    await app.start();
  });
});
