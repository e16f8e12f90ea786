// Position reports written in batches (server/driver-app/position-write.ts)
// on PostgreSQL: a driver's row held by another transaction (as an offer
// being made to that driver holds it) holds up that driver's report only —
// the others are written and answered meanwhile — and the held report is
// written and answered once the row is free. An answered report is stored.
// The app's mark of being seen goes around a held row the same way.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { provisioningKeyFor } from "@/server/driver-app/keys";
import { TEST_DB, type TestDatabase } from "./support/db";
import { closeAgents } from "./support/http";
import { appInstance, freshDatabase, template, type AppInstance } from "./support/instance";

let database: TestDatabase;
let app: AppInstance;
const drivers: Array<{ id: number; key: string }> = [];
let centre = { lat: 0, lon: 0 };

async function report(key: string, body: { lat: number; lon: number }) {
  const res = await fetch(`${app.url}/driver-app/v1/position`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ ...body, speed: 10, bearing: 90 }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe.skipIf(TEST_DB !== "postgres")("position reports in batches on PostgreSQL", () => {
  beforeAll(async () => {
    database = await freshDatabase();
    const rows = await database.use(async (prisma, query) => {
      await query(`UPDATE driver SET state = 'OFFLINE'`);
      const city = await prisma.city.findFirstOrThrow({ orderBy: { id: "asc" }, select: { id: true, lat: true, lon: true } });
      centre = { lat: city.lat, lon: city.lon };
      return prisma.driver.findMany({ where: { cityId: city.id, active: true }, orderBy: { id: "asc" }, take: 6, select: { id: true, callSign: true } });
    });
    // A pool of three: the second test holds more drivers' rows than that.
    app = await appInstance(database, { env: { RATE_LIMIT_PER_KEY: "0", RATE_LIMIT_PER_ADDRESS: "0", SIMULATE: "0", DATABASE_POOL_SIZE: "3" } });
    await app.start();
    const provisioning = provisioningKeyFor(template().appSecret);
    for (const d of rows) {
      const res = await fetch(`${app.url}/driver-app/v1/keys`, { method: "POST", headers: { authorization: `Bearer ${provisioning}`, "content-type": "application/json" }, body: JSON.stringify({ call_sign: d.callSign }) });
      const key = String(((await res.json()) as { app_key: string }).app_key);
      const started = await fetch(`${app.url}/driver-app/v1/shift/start`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(centre) });
      expect(started.status).toBe(200);
      drivers.push({ id: d.id, key });
    }
  }, 300_000);

  afterAll(async () => {
    closeAgents();
    await app?.stop();
    await database?.drop();
  });

  it("answers the others while one driver's row is held, and that driver's report once it is free, each stored", async () => {
    const [held, ...others] = drivers as [(typeof drivers)[0], ...typeof drivers];
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("SELECT id FROM driver WHERE id = $1 FOR NO KEY UPDATE", [held.id]);
      let heldAnswered = false;
      const heldSpot = { lat: centre.lat + 0.0011, lon: centre.lon + 0.0012 };
      const heldReply = report(held.key, heldSpot).then((r) => {
        heldAnswered = true;
        return r;
      });
      // The others, at once and again, while the row stays held: each answered, each stored.
      for (let round = 0; round < 3; round++) {
        const spots = others.map((_, i) => ({ lat: centre.lat + 0.001 * (i + 1) + round / 10_000, lon: centre.lon }));
        const replies = await Promise.all(others.map((d, i) => report(d.key, spots[i]!)));
        expect(replies.map((r) => r.status)).toEqual(others.map(() => 200));
        const stored = await locker.query<{ id: number; lat: number }>("SELECT id, lat FROM driver WHERE id = ANY($1::int[])", [others.map((d) => d.id)]);
        for (const [i, d] of others.entries()) expect(stored.rows.find((r) => r.id === d.id)?.lat).toBeCloseTo(spots[i]!.lat, 9);
      }
      expect(heldAnswered).toBe(false);
      await locker.query("COMMIT");
      const r = await heldReply;
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const stored = await locker.query<{ lat: number; lon: number }>("SELECT lat, lon FROM driver WHERE id = $1", [held.id]);
      expect(stored.rows[0]).toEqual(heldSpot);
    } finally {
      await locker.query("ROLLBACK").catch(() => undefined);
      await locker.end();
    }
  });

  it("more drivers' rows held than the pool has connections: the others are still answered while they are held", async () => {
    // Each report used to wait for its held row alone on a pooled connection: four such waits took the pool of three,
    // and every other report waited for the rows too (docs/performance.md, "A fleet of ten thousand", round five).
    const held = drivers.slice(0, 4);
    const others = drivers.slice(4);
    // Every driver's app noted as seen just now (a write of their rows, at most every 10 s): only positions below.
    for (const d of drivers) expect((await report(d.key, centre)).status).toBe(200);
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("SELECT id FROM driver WHERE id = ANY($1::int[]) FOR NO KEY UPDATE", [held.map((d) => d.id)]);
      const heldSpots = held.map((_, i) => ({ lat: centre.lat + 0.002 + i / 10_000, lon: centre.lon + 0.002 }));
      const heldReplies = held.map((d, i) => report(d.key, heldSpots[i]!));
      // The held reports' first batch has skipped them by now.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const spots = others.map((_, i) => ({ lat: centre.lat + 0.003 + i / 10_000, lon: centre.lon }));
      const answered = await Promise.race([
        Promise.all(others.map((d, i) => report(d.key, spots[i]!))),
        new Promise<"not answered">((resolve) => setTimeout(() => resolve("not answered"), 3_000)),
      ]);
      expect(answered === "not answered" ? answered : answered.map((r) => r.status)).toEqual(others.map(() => 200));
      await locker.query("COMMIT");
      for (const r of await Promise.all(heldReplies)) expect(r.status, JSON.stringify(r.body)).toBe(200);
      const stored = await locker.query<{ id: number; lat: number; lon: number }>("SELECT id, lat, lon FROM driver WHERE id = ANY($1::int[])", [drivers.map((d) => d.id)]);
      for (const [i, d] of held.entries()) expect(stored.rows.find((r) => r.id === d.id)).toMatchObject(heldSpots[i]!);
      for (const [i, d] of others.entries()) expect(stored.rows.find((r) => r.id === d.id)).toMatchObject(spots[i]!);
    } finally {
      await locker.query("ROLLBACK").catch(() => undefined);
      await locker.end();
    }
  });

  it("an app's mark of being seen skips a held row: the other drivers' calls are answered meanwhile, and the mark is written at the driver's next call once free", async () => {
    // The marks are written at most every 10 s a driver (server/dispatch/liveness.ts): wait that long so that every call below writes one.
    await new Promise((resolve) => setTimeout(resolve, 10_500));
    const held = drivers.slice(0, 4);
    const others = drivers.slice(4);
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    const me = (key: string) => fetch(`${app.url}/driver-app/v1/me`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
    const seenAt = async (ids: number[]) => {
      const rows = await locker.query<{ id: number; seen: Date | null }>("SELECT id, app_seen_at AS seen FROM driver WHERE id = ANY($1::int[])", [ids]);
      return new Map(rows.rows.map((r) => [r.id, r.seen?.getTime() ?? 0]));
    };
    try {
      const before = await seenAt(held.map((d) => d.id));
      await locker.query("BEGIN");
      await locker.query("SELECT id FROM driver WHERE id = ANY($1::int[]) FOR NO KEY UPDATE", [held.map((d) => d.id)]);
      // The held drivers' calls, then the others': every one answered while the rows stay held (a mark that waited for
      // its row held a pooled connection, and every later batch of marks waited behind it).
      const answered = await Promise.race([
        Promise.all([...held, ...others].map((d) => me(d.key))),
        new Promise<"not answered">((resolve) => setTimeout(() => resolve("not answered"), 3_000)),
      ]);
      expect(answered).toEqual([...held, ...others].map(() => 200));
      await locker.query("COMMIT");
      // Skipped, not lost: the next call of each held driver writes its mark.
      const unwritten = await seenAt(held.map((d) => d.id));
      expect(held.map((d) => unwritten.get(d.id))).toEqual(held.map((d) => before.get(d.id)));
      for (const d of held) expect(await me(d.key)).toBe(200);
      const after = await seenAt(held.map((d) => d.id));
      for (const d of held) expect(after.get(d.id)!, `driver ${d.id}`).toBeGreaterThan(before.get(d.id)!);
    } finally {
      await locker.query("ROLLBACK").catch(() => undefined);
      await locker.end();
    }
  });
});
