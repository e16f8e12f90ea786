// A database outage answers NOT_APPLIED, not INTERNAL (issue 33): with the
// server's database closed to connections and its sessions terminated (what
// a failover or an operator does), an order creation answers the distinct
// code in the dispatch API's form (HTTP 200, Retry-After), nothing is
// created, and once the database is back the same request succeeds; the
// exchange API, the driver app and the console's tRPC answer it in their own
// forms (503 NotApplied / NOT_APPLIED / SERVICE_UNAVAILABLE).
// PostgreSQL only (PGlite lives inside the server's process).
// Before the fix the reply was the generic INTERNAL, so a client could not
// tell "not done, retry" from "maybe done".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { TEST_DB, type TestDatabase } from "./support/db";
import { closeAgents, send, until } from "./support/http";
import { freshDatabase, startInstance, template, type AppInstance } from "./support/instance";
import { POSTGRES_ADMIN_URL } from "../support/server";
import { signIn } from "./support/console";

let database: TestDatabase;
let app: AppInstance;
const phone = `+7916${String(Date.now()).slice(-7)}`;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function databaseName(): string {
  return new URL(database.url!).pathname.slice(1);
}

async function createOrder() {
  const body = new URLSearchParams({ api_key: template().apiKey, phone, street: "ул. Ленина", house: "2", moderation_required: "no", need_notify: "no" }).toString();
  const r = await send(app.url, { method: "POST", path: "/api/order", headers: { "content-type": "application/x-www-form-urlencoded" }, body, timeoutMs: 60_000 });
  return { status: r.status, retryAfter: r.headers["retry-after"], body: JSON.parse(r.text) as { status: string; response?: { uuid: string }; error?: { code: string; message: string } } };
}

describe.skipIf(TEST_DB !== "postgres")("a database outage answers NOT_APPLIED", () => {
  beforeAll(async () => {
    database = await freshDatabase();
    app = await startInstance(database, { env: { RATE_LIMIT_PER_KEY: "0", RATE_LIMIT_PER_ADDRESS: "0" } });
  }, 300_000);

  afterAll(async () => {
    closeAgents();
    if (database) await admin(`ALTER DATABASE ${databaseName()} ALLOW_CONNECTIONS true`).catch(() => undefined);
    await app?.stop();
    await database?.drop();
  });

  it("creation during the outage: NOT_APPLIED with Retry-After, nothing created; after it, the retry succeeds", async () => {
    const name = databaseName();
    const operator = await signIn(app.url, template().adminEmail, template().adminPassword);
    await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`);
    // The pool drops the terminated idle sessions as their sockets close.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const during = [];
    for (let i = 0; i < 3; i++) during.push(await createOrder());
    for (const r of during) {
      expect(r.status).toBe(200);
      expect(r.body.status, JSON.stringify(r.body)).toBe("ERROR");
      expect(r.body.error?.code).toBe("NOT_APPLIED");
      expect(r.body.error?.message).toMatch(/retry|повторите/);
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
    }

    // The other interfaces in their own forms: the exchange API and the driver app (both authenticate in the database).
    const exchange = await send(app.url, { method: "GET", path: "/exchange/profiles", headers: { authorization: `Bearer ${"x".repeat(40)}` }, timeoutMs: 60_000 });
    expect(exchange.status, exchange.text).toBe(503);
    expect((JSON.parse(exchange.text) as { errors: Array<{ code: string }> }).errors[0]!.code).toBe("NotApplied");
    expect(Number(exchange.headers["retry-after"])).toBeGreaterThan(0);
    const driverApp = await send(app.url, { method: "GET", path: "/driver-app/v1/me", headers: { authorization: `Bearer ${"y".repeat(40)}` }, timeoutMs: 60_000 });
    expect(driverApp.status, driverApp.text).toBe(503);
    expect((JSON.parse(driverApp.text) as { error: { code: string } }).error.code).toBe("NOT_APPLIED");
    expect(Number(driverApp.headers["retry-after"])).toBeGreaterThan(0);
    // The console's tRPC (the session's user is read from the database on every call).
    const trpc = await send(app.url, { method: "GET", path: "/api/trpc/session.me", headers: { cookie: operator.cookie }, timeoutMs: 60_000 });
    expect(trpc.status, trpc.text).toBe(503);
    expect(trpc.text).toContain("SERVICE_UNAVAILABLE");
    expect(trpc.text).toContain("NOT_APPLIED");

    await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    const after = await until("the retry succeeds", async () => {
      const r = await createOrder();
      return r.body.status === "DONE" ? r : undefined;
    });
    expect(after.body.response?.uuid).toBeTruthy();
    const rows = await database.use((_p, query) => query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE phone = $1`, [phone]));
    expect(rows[0]!.n).toBe(1);
  });
});
