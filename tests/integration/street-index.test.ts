// The in-memory street index of the started server (server/geo/street-index.ts)
// over real HTTP: the dispatch API answers what the former SQL answers, and a
// change of the streets is seen shortly after, whoever makes it: the console
// (tRPC, in Next's copy of the modules), or, on PostgreSQL, Prisma writing
// directly from this process, also while the server's LISTEN connection is
// being re-established. (On PGlite the server's process owns the database:
// tests/unit/street-index.test.ts writes directly there.)
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/server/generated/prisma/client";
import type { RawQuery } from "@/server/db";
import { signInApi, trpc, type Session } from "@/e2e/support/console-api";
import { apiGet, apiPost, baseUrl } from "../support/api";
import { searchStreetsSql, streetPatterns } from "../support/street-sql";
import { eventually } from "../support/wait";
import { idleClientLost } from "../reliability/support/db";
import { TEST_CLIENT_OPTIONS } from "../support/prisma-options";

async function streets(pattern: string, cityId?: number, limit?: number): Promise<string[]> {
  const reply = await apiGet<{ streets: string[] }>("streets", { pattern, city_id: cityId, limit });
  expect(reply.status, JSON.stringify(reply.error)).toBe("DONE");
  return reply.response.streets;
}

/** The API's answer once `check` holds (the index reloads in the background), or after `ms`. */
function streetsOnce(pattern: string, check: (found: string[]) => boolean, ms = 10_000): Promise<string[]> {
  return eventually(() => streets(pattern), check, ms);
}

describe("street index: changes through the console", () => {
  let session: Session;
  beforeAll(async () => {
    session = await signInApi(baseUrl(), inject("adminEmail"), inject("adminPassword"));
  });

  it("finds a street added in the console at once, in the API and in the console", async () => {
    const name = `Астероидная ${Date.now() % 100_000}`;
    expect(await streets("астероидная")).toEqual([]);
    const added = await trpc<{ id: number }>(baseUrl(), session, "referenceAdmin.addStreet", { cityId: 1, kind: "STREET", prefix: "ул.", name, lat: 55.75, lon: 37.62, houses: [] }, "mutation");
    expect(added.error).toBeUndefined();
    expect(await streets("астероидная")).toEqual([`ул. ${name}`]);
    const inConsole = await trpc<Array<{ fullName: string }>>(baseUrl(), session, "referenceAdmin.streets", { q: "астероидн" });
    expect(inConsole.data?.map((s) => s.fullName)).toEqual([`ул. ${name}`]);
  });
});

/** An order's outcome at an address: its error code, or "DONE". */
async function orderAt(street: string, house: string): Promise<string> {
  const reply = await apiPost("order", { phone: "89161234567", street, house, moderation_required: "no", need_notify: "no" });
  return reply.status === "DONE" ? "DONE" : (reply.error?.code ?? "?");
}

describe("houses looked up once are kept (server/geo/house-cache.ts) and forgotten on a change", () => {
  it("a house unknown a moment ago is found once the console adds it", async () => {
    const session = await signInApi(baseUrl(), inject("adminEmail"), inject("adminPassword"));
    const name = `Звёздная ${Date.now() % 100_000}`;
    const added = await trpc<{ id: number }>(baseUrl(), session, "referenceAdmin.addStreet", { cityId: 1, kind: "STREET", prefix: "ул.", name, lat: 55.75, lon: 37.62, houses: [{ number: "1", lat: 55.751, lon: 37.621 }] }, "mutation");
    expect(added.error).toBeUndefined();
    const street = `ул. ${name}`;
    await eventually(() => orderAt(street, "1"), (code) => code === "DONE", 10_000);
    // Asked twice while unknown (the second answer may come from memory), then added.
    expect(await orderAt(street, "2")).toBe("ADDRESS_NOT_FOUND");
    expect(await orderAt(street, "2")).toBe("ADDRESS_NOT_FOUND");
    const more = await trpc(baseUrl(), session, "referenceAdmin.addHouses", { streetId: added.data!.id, houses: [{ number: "2", lat: 55.752, lon: 37.622 }] }, "mutation");
    expect(more.error).toBeUndefined();
    expect(await eventually(() => orderAt(street, "2"), (code) => code === "DONE", 10_000)).toBe("DONE");
  });
});

describe.skipIf(inject("testDb") !== "postgres")("street index on PostgreSQL: other writers", () => {
  let pool: pg.Pool;
  let prisma: PrismaClient;
  let query: RawQuery;

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
    pool.on("error", idleClientLost);
    prisma = new PrismaClient({ ...TEST_CLIENT_OPTIONS, adapter: new PrismaPg(pool) });
    query = async <T,>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await pool?.end().catch(() => undefined);
  });

  it("answers what the SQL answers (PostgreSQL's collation)", async () => {
    const cities = (await query<{ id: number }>("SELECT id FROM city ORDER BY id")).map((c) => c.id);
    const names = (await query<{ full_name: string }>("SELECT full_name FROM street ORDER BY id")).map((s) => s.full_name);
    // (An empty parameter counts as absent in the API.)
    const patterns = streetPatterns(names, 11, 25).filter((p) => p.trim() !== "");
    const limits = [undefined, 1, 5, 200, 3];
    for (const [i, pattern] of patterns.entries()) {
      const cityId = i % 3 === 0 ? undefined : cities[i % cities.length];
      const limit = limits[i % limits.length];
      const expected = await searchStreetsSql(query, { pattern, cityId, limit: limit ?? 50 });
      // The API lists each name once (two cities may have one street name).
      expect(await streets(pattern, cityId, limit), JSON.stringify({ pattern, cityId, limit })).toEqual([...new Set(expected.map((s) => s.fullName))]);
    }
  });

  it("sees a street added, renamed and deleted with Prisma directly", async () => {
    const street = await prisma.street.create({
      data: { cityId: 1, prefix: "ул.", name: "Кометная", fullName: "ул. Кометная", searchKey: "ул. кометная", lat: 55.7, lon: 37.6, words: { create: [{ position: 0, word: "ул" }, { position: 1, word: "кометная" }] } },
    });
    expect(await streetsOnce("кометн", (s) => s.length > 0)).toEqual(["ул. Кометная"]);

    await prisma.$transaction([
      prisma.street.update({ where: { id: street.id }, data: { name: "Метеорная", fullName: "ул. Метеорная", searchKey: "ул. метеорная" } }),
      prisma.streetWord.update({ where: { streetId_position: { streetId: street.id, position: 1 } }, data: { word: "метеорная" } }),
    ]);
    expect(await streetsOnce("метеорн", (s) => s.length > 0)).toEqual(["ул. Метеорная"]);
    expect(await streets("кометн")).toEqual([]);

    await prisma.street.delete({ where: { id: street.id } });
    expect(await streetsOnce("метеорн", (s) => s.length === 0)).toEqual([]);
  });

  it("sees a house added, moved and deleted with SQL directly (the house cache forgets it)", async () => {
    const [street] = await query<{ id: number; full_name: string }>(`SELECT id, full_name FROM street WHERE full_name = 'ул. Ленина' AND city_id = 1`);
    expect(street).toBeDefined();
    const position = async (uuid: string) => (await query<{ lat: number }>(`SELECT lat FROM orders WHERE uuid = $1::uuid`, [uuid]))[0]?.lat;
    const orderUuid = async () => {
      const reply = await apiPost<{ uuid: string }>("order", { phone: "89161234567", street: street!.full_name, house: "7777", moderation_required: "no", need_notify: "no" });
      return reply.status === "DONE" ? reply.response.uuid : undefined;
    };
    expect(await orderAt(street!.full_name, "7777")).toBe("ADDRESS_NOT_FOUND");
    await query(`INSERT INTO house (street_id, number, number_key, lat, lon) VALUES ($1, '7777', '7777', 55.7001, 37.6)`, [street!.id]);
    const first = await eventually(orderUuid, (uuid) => uuid !== undefined, 10_000);
    expect(await position(first!)).toBeCloseTo(55.7001, 6);
    await query(`UPDATE house SET lat = 55.7002 WHERE street_id = $1 AND number_key = '7777'`, [street!.id]);
    await eventually(async () => position((await orderUuid())!), (lat) => Math.abs((lat ?? 0) - 55.7002) < 1e-9, 10_000);
    await query(`DELETE FROM house WHERE street_id = $1 AND number_key = '7777'`, [street!.id]);
    expect(await eventually(() => orderAt(street!.full_name, "7777"), (code) => code === "ADDRESS_NOT_FOUND", 10_000)).toBe("ADDRESS_NOT_FOUND");
  });

  it("loads again after its LISTEN connection was lost (changes meanwhile are not missed)", async () => {
    await streets("лен");
    const listeners = async () =>
      (await query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'taxi-listen:taxi_reference'`)).map((r) => r.pid);
    const before = await listeners();
    expect(before.length).toBeGreaterThan(0);
    await query("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) pid", [before]);
    // Written while nobody listens: the notification is lost; the reconnection makes up for it.
    await prisma.$executeRawUnsafe(
      `WITH s AS (INSERT INTO street (city_id, kind, prefix, name, full_name, search_key, lat, lon)
                  VALUES (1, 'STREET', 'ул.', 'Туманная', 'ул. Туманная', 'ул. туманная', 55.7, 37.6) RETURNING id)
       INSERT INTO street_word (street_id, position, word) SELECT id, p, w FROM s, (VALUES (0, 'ул'), (1, 'туманная')) v(p, w)`,
    );
    expect(await streetsOnce("туманн", (s) => s.length > 0, 5000)).toEqual(["ул. Туманная"]);
    const after = await listeners();
    expect(after.length).toBeGreaterThan(0);
    expect(after.some((pid) => before.includes(pid))).toBe(false);
    await prisma.$executeRawUnsafe(`DELETE FROM street WHERE full_name = 'ул. Туманная'`);
    expect(await streetsOnce("туманн", (s) => s.length === 0)).toEqual([]);
  });
});
