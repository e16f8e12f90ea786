// The embedded database's analysis (server/db/analyze.ts): tables never
// analysed or changed by more than 10% since are analysed, the others are
// left alone, and the planner then knows the tables' sizes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeDb, connection, db, withSession } from "@/server/db";
import { migrate } from "@/server/db/migrate";
import { seedDatabase } from "@/server/seed";
import { analyzeDueTables } from "@/server/db/analyze";

const dir = mkdtempSync(path.join(tmpdir(), "taxi-analyze-"));
process.env.DATA_DIR = dir;
process.env.APP_SECRET ??= "unit-test-secret-unit-test-secret-0123456";
process.env.LOG_LEVEL = "error";
delete process.env.DATABASE_URL;

async function addOrders(n: number): Promise<void> {
  await db().$executeRawUnsafe(
    `INSERT INTO orders (uuid, city_id, service_id, state, status_code, phone, street, house, lat, lon, updated_at, created_at)
     SELECT gen_random_uuid(), c.id, s.id, 'FREE', 9, '+7916' || lpad(i::text, 7, '0'), 'ул. Анализа', '1', c.lat, c.lon, now(), now()
       FROM generate_series(1, $1::int) i, (SELECT id, lat, lon FROM city ORDER BY id LIMIT 1) c, (SELECT id FROM service ORDER BY id LIMIT 1) s`,
    n,
  );
}

/** Changes since the last analysis, once the database has counted at least `least` (its statistics are flushed at most once a second). */
async function changesCounted(least: number): Promise<number> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const rows = await db().$queryRawUnsafe<Array<{ n: number }>>(`SELECT n_mod_since_analyze::int AS n FROM pg_stat_user_tables WHERE relname = 'orders'`);
    const n = Number(rows[0]?.n ?? 0);
    if (n >= least || Date.now() > deadline) return n;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function plannedRows(): Promise<number> {
  const rows = await db().$queryRawUnsafe<Array<{ reltuples: number }>>(`SELECT reltuples::float8 AS reltuples FROM pg_class WHERE relname = 'orders'`);
  return Number(rows[0]!.reltuples);
}

beforeAll(async () => {
  await withSession((session) => migrate(session));
  await seedDatabase(db(), { demo: true, apiKey: "analyze-test-key-0123456789", adminEmail: "admin@unit.local", adminPassword: "unit-password" });
  expect(connection().kind).toBe("pglite");
}, 300_000);

afterAll(async () => {
  await closeDb();
  rmSync(dir, { recursive: true, force: true });
});

describe("analysis of the embedded database", () => {
  it("analyses what changed, leaves the rest, and tells the planner the tables' sizes", async () => {
    await addOrders(2_000);
    await changesCounted(2_000);
    const first = await analyzeDueTables();
    expect(first).toContain("orders");
    expect(await plannedRows()).toBeGreaterThanOrEqual(2_000);

    // Nothing changed since: nothing is due.
    expect(await analyzeDueTables()).toEqual([]);

    // A change under the threshold (50 rows + 10%) is left for later; over it, the table is analysed again.
    await addOrders(100);
    expect(await changesCounted(100)).toBe(100);
    expect(await analyzeDueTables()).not.toContain("orders");
    await addOrders(400);
    expect(await changesCounted(500)).toBe(500);
    // The orders' facts for the reports (order_fact) are written by the orders' own triggers: they change with them.
    expect((await analyzeDueTables()).sort()).toEqual(["order_fact", "orders"]);
    expect(await plannedRows()).toBeGreaterThanOrEqual(2_500);
  }, 120_000);
});
