// Several instances: two app instances on one PostgreSQL (the way N
// instances run behind a load balancer, docs/operations.md):
//   - both start at once on an empty database: one migrates and seeds, the
//     other waits for it;
//   - their outbox workers share the work (FOR UPDATE SKIP LOCKED): more
//     deliveries are under way at once than one worker ever takes, and each
//     message is delivered exactly once;
//   - callbacks of orders written on both instances go out once each;
//   - live updates reach the consoles on both instances, whichever instance
//     made the change (LISTEN/NOTIFY);
//   - a price token issued by one is accepted by the other, and used once.
// The embedded PGlite is one process's database, so this suite runs on
// PostgreSQL only.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueApiKey } from "@/server/auth/api-keys";
import { emptyPostgresDatabase, TEST_DB, type TestDatabase } from "./support/db";
import { dispatchClient, priceToken, type DispatchClient } from "./support/dispatch";
import { HoldReceiver } from "./support/hold-receiver";
import { closeAgents, until } from "./support/http";
import { appInstance, template, type AppInstance } from "./support/instance";
import { openLiveEvents, signIn, type LiveStream } from "./support/console";

const BATCH = 20; // deliveries one worker keeps under way to one receiver here (OUTBOX_PER_TARGET below)
const callbackKey = `multi-key-${randomUUID()}`;

let database: TestDatabase;
let a: AppInstance;
let b: AppInstance;
let apiA: DispatchClient;
let apiB: DispatchClient;
let receiver: HoldReceiver;

describe.skipIf(TEST_DB !== "postgres")("two instances on one PostgreSQL", () => {
  beforeAll(async () => {
    receiver = await new HoldReceiver().start();
    database = await emptyPostgresDatabase();
    // Every delivery below goes to one receiver: let one worker take BATCH of them at once.
    const env = { OUTBOX_POLL_MS: "100", OUTBOX_PER_TARGET: String(BATCH), RATE_LIMIT_PER_KEY: "0", RATE_LIMIT_PER_ADDRESS: "0" };
    a = await appInstance(database, { env });
    b = await appInstance(database, { env });
    await Promise.all([a.start(), b.start()]);
    await database.use((prisma) => issueApiKey(prisma, { name: "two instances", key: callbackKey, callbackTemplate: `${receiver.url}/cb/%uuid%/%status_code%` }));
    apiA = dispatchClient(a.url, callbackKey);
    apiB = dispatchClient(b.url, callbackKey);
  }, 300_000);

  afterAll(async () => {
    closeAgents();
    await a?.stop();
    await b?.stop();
    await receiver?.stop();
    await database?.drop();
  });

  it("both started at once on an empty database: migrated once, seeded once", async () => {
    await database.use(async (prisma, query) => {
      const migrations = await query<{ migration_name: string; n: number }>(`SELECT migration_name, count(*)::int AS n FROM _prisma_migrations GROUP BY migration_name`);
      expect(migrations.length).toBeGreaterThan(0);
      for (const m of migrations) expect(m.n, m.migration_name).toBe(1);
      expect(await prisma.user.count({ where: { email: template().adminEmail } })).toBe(1);
      expect(await prisma.city.count()).toBeGreaterThan(0);
    });
  });

  it("share the outbox: more deliveries at once than one worker takes, each exactly once", async () => {
    const messages = 2 * BATCH;
    receiver.hold(messages, 10_000);
    await database.use((prisma) =>
      prisma.outboxMessage.createMany({
        data: Array.from({ length: messages }, (_, i) => ({ channel: "callback", topic: "status", orderingKey: `shared:${i}`, target: `${receiver.url}/shared/${i}`, payload: { i } })),
      }),
    );
    await until("every shared message delivered", () => receiver.hits.filter((h) => h.path.startsWith("/shared/")).length >= messages);
    // One worker holds at most BATCH deliveries under way: more means both instances were delivering.
    expect(receiver.maxInFlight).toBeGreaterThan(BATCH);
    await until("all marked delivered", async () => {
      const rows = await database.use((_p, query) => query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_message WHERE target LIKE $1 AND status = 'DELIVERED'`, [`${receiver.url}/shared/%`]));
      return rows[0]!.n === messages;
    });
    const hits = receiver.hits.filter((h) => h.path.startsWith("/shared/"));
    expect(new Set(hits.map((h) => h.deliveryId)).size).toBe(messages);
    expect(hits).toHaveLength(messages);
    const attempts = await database.use((_p, query) =>
      query<{ attempts: number; logged: number }>(
        `SELECT m.attempts, (SELECT count(*)::int FROM delivery_attempt d WHERE d.message_id = m.id) AS logged FROM outbox_message m WHERE m.target LIKE $1`,
        [`${receiver.url}/shared/%`],
      ),
    );
    for (const row of attempts) expect(row).toEqual({ attempts: 1, logged: 1 });
  });

  it("callbacks of orders written on both instances go out once each", async () => {
    const before = receiver.hits.length;
    const created = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? apiA : apiB).post<{ uuid: string }>("order", { phone: "89161234567", street: "ул. Ленина", house: String(2 + (i % 4)), moderation_required: "no", need_notify: "no" })),
    );
    for (const r of created) expect(r.status, JSON.stringify(r.error)).toBe("DONE");
    const moved = await Promise.all(created.map((r, i) => (i % 3 ? apiB : apiA).post("order/status", { uuid: r.response.uuid, code: 95 })));
    for (const r of moved) expect(r.status, JSON.stringify(r.error)).toBe("DONE");
    // Two status changes per order: created (9) and cancelled (95).
    await until("60 callbacks", () => receiver.hits.length - before >= 60);
    // Every message delivered, each claimed once: a second claim (a second worker) would count an attempt before
    // its request went out, and no message is claimed once delivered. So the hits below are all there will be.
    const uuids = created.map((r) => r.response.uuid);
    const messages = await until("the 60 messages delivered", () =>
      database.use(async (_prisma, query) => {
        const rows = await query<{ status: string; attempts: number }>(
          `SELECT status, attempts FROM outbox_message WHERE target LIKE $1 AND split_part(target, '/', 5) = ANY($2::text[])`,
          [`${receiver.url}/cb/%`, uuids],
        );
        return rows.length === 60 && rows.every((r) => r.status === "DELIVERED") ? rows : undefined;
      }),
    );
    expect(messages.map((m) => m.attempts)).toEqual(Array(60).fill(1));
    const hits = receiver.hits.slice(before);
    expect(hits).toHaveLength(60);
    expect(new Set(hits.map((h) => h.deliveryId)).size).toBe(60);
    for (const r of created) {
      const mine = hits.filter((h) => h.path.startsWith(`/cb/${r.response.uuid}/`)).map((h) => h.path.split("/")[3]);
      expect(mine, r.response.uuid).toEqual(["9", "95"]);
    }
  });

  it("live updates reach the consoles on both instances, whichever made the change", async () => {
    const t = template();
    const session = await signIn(a.url, t.adminEmail, t.adminPassword);
    expect(session.cookie).toMatch(/session-token=/);
    const streams: LiveStream[] = [await openLiveEvents(a.url, session.cookie), await openLiveEvents(b.url, session.cookie)];
    try {
      for (const s of streams) expect(s.status).toBe(200);
      // The streams subscribe once their first reply is out: an order event reaching both marks them live.
      await until("both streams live", async () => {
        await apiA.post("order", { phone: "89161234567", street: "ул. Ленина", house: "4", moderation_required: "no", need_notify: "no" });
        return streams.every((s) => s.events.some((e) => JSON.stringify(e).includes("order.created")));
      }, 30_000, 300);
      const onA = await apiA.post<{ uuid: string }>("order", { phone: "89161234567", street: "ул. Ленина", house: "2", moderation_required: "no", need_notify: "no" });
      const onB = await apiB.post<{ uuid: string }>("order", { phone: "89161234567", street: "ул. Ленина", house: "3", moderation_required: "no", need_notify: "no" });
      for (const uuid of [onA.response.uuid, onB.response.uuid]) {
        for (const [i, s] of streams.entries()) {
          await until(`order ${uuid} on the console of instance ${i ? "B" : "A"}`, () => s.events.some((e) => JSON.stringify(e).includes(uuid)), 10_000);
        }
      }
    } finally {
      for (const s of streams) s.close();
    }
  });

  it("a burst of changes on one instance reaches the other's console whole and in order (events travel in batches)", async () => {
    const t = template();
    const session = await signIn(b.url, t.adminEmail, t.adminPassword);
    const stream = await openLiveEvents(b.url, session.cookie);
    try {
      expect(stream.status).toBe(200);
      await until("the stream is live", async () => {
        await apiA.post("order", { phone: "89161234567", street: "ул. Ленина", house: "5", moderation_required: "no", need_notify: "no" });
        return stream.events.some((e) => JSON.stringify(e).includes("order.created"));
      }, 30_000, 300);
      // Many at once on A: each a creation, then a cancellation of the same order.
      const made = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          apiA.post<{ uuid: string }>("order", { phone: `8916${String(2000000 + i)}`, street: "ул. Ленина", house: String(2 + (i % 4)), moderation_required: "no", need_notify: "no" }),
        ),
      );
      for (const r of made) expect(r.error, JSON.stringify(r.error)).toBeUndefined();
      const uuids = made.map((r) => r.response.uuid);
      await Promise.all(uuids.map((uuid) => apiA.post("cancel_order", { uuid })));
      const seen = (uuid: string) => stream.events.map((e) => JSON.stringify(e)).filter((e) => e.includes(uuid));
      // A deadline, not a speed target: on a loaded 2-core machine 120 changes may take a while to cross; when it
      // passes, the message says how many arrived and whether the console was told to resync instead.
      const complete = () => uuids.filter((uuid) => seen(uuid).length >= 2).length;
      await until("every creation and cancellation on B's console", () => complete() === uuids.length, 60_000, 250).catch((error: unknown) => {
        const resyncs = stream.events.filter((e) => JSON.stringify(e).includes("resync")).length;
        throw new Error(`${error instanceof Error ? error.message : String(error)}: ${complete()} of ${uuids.length} orders seen whole, ${resyncs} resync(s)`);
      });
      for (const uuid of uuids) {
        const events = seen(uuid);
        expect(events[0]).toContain("order.created");
        expect(events.at(-1)).toContain("order.changed");
      }
    } finally {
      stream.close();
    }
  });

  it("a price token issued by one instance is accepted by the other, once", async () => {
    const token = await priceToken(apiA, "4");
    const made = await apiB.post<{ uuid: string }>("order", { token });
    expect(made.status, JSON.stringify(made.error)).toBe("DONE");
    // Again by the same key on the other instance: the same order; by another key: refused.
    const again = await apiA.post<{ uuid: string }>("order", { token });
    expect(again.response.uuid).toBe(made.response.uuid);
    expect((await dispatchClient(a.url, template().apiKey).post("order", { token })).error?.code).toBe("TOKEN_USED");
    // And used at once on both: one order, which every use answers.
    const raced = await priceToken(apiB, "5");
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? apiA : apiB).post<{ uuid: string }>("order", { token: raced })));
    expect(replies.filter((r) => r.status === "DONE")).toHaveLength(10);
    expect(new Set(replies.map((r) => r.response.uuid)).size).toBe(1);
  });
});
