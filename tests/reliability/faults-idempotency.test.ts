// Order creation that can be retried (issue 33), over real HTTP against one
// started server, on PGlite and PostgreSQL:
//   - a create sent again with its Idempotency-Key answers the first reply
//     (same status and body, `Idempotent-Replayed: true`) and creates nothing;
//   - the same key with other parameters is refused (IDEMPOTENCY_KEY_REUSED),
//     nothing created;
//   - 20 creates with one key at once make exactly one order, and all 20
//     answer it (the database decides: the key's primary key);
//   - a price token sent again by the key that used it answers its order;
//     another key still gets TOKEN_USED;
//   - malformed keys are refused as BAD_PARAMETER, nothing created;
//   - clients that send no key work as before (two posts, two orders);
//   - a key past IDEMPOTENCY_KEY_HOURS (its row moved back in the database)
//     is forgotten: the same key creates again.
// Before the fix the header was ignored: every replay made another order.
//
// And the same for every creating POST of the API, as a class (the router
// reads the key for every operation marked `idempotent`; each one's service
// writes it with its effect): the payments (`POST /api/customer/balance`,
// `POST /api/driver/balance`) replay their first reply and pay once, refuse
// the same key with another body, and pay once for ten at once; the served
// document lists the header on every creating POST and the walk below
// fails when a POST appears that is neither creating nor named as a move or
// a setting. Before, the payments ignored the header: a customer payment
// without txn_id, retried after a timeout, paid twice.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueApiKey } from "@/server/auth/api-keys";
import type { TestDatabase } from "./support/db";
import { dispatchClient, priceToken, type DispatchClient, type DispatchReply } from "./support/dispatch";
import { closeAgents, send } from "./support/http";
import { freshDatabase, startInstance, type AppInstance } from "./support/instance";

let database: TestDatabase;
let app: AppInstance;
let api: DispatchClient;
let other: DispatchClient;
const keyA = `idem-a-${randomUUID()}`;
const keyB = `idem-b-${randomUUID()}`;

let phoneSeq = 0;
const base = String(Date.now()).slice(-5);
/** A phone no other case uses, so that its orders can be counted. */
const newPhone = () => `+7916${base}${String(++phoneSeq).padStart(2, "0")}`;

interface Posted<T> {
  reply: DispatchReply<T>;
  text: string;
  replayed: string | undefined;
}

/** A POST of the dispatch API as a form, with an Idempotency-Key header when one is given. */
async function post<T>(path: string, params: Record<string, string>, idempotencyKey?: string, apiKey = keyA): Promise<Posted<T>> {
  const body = new URLSearchParams({ api_key: apiKey, ...params }).toString();
  const r = await send(app.url, {
    method: "POST",
    path: `/api/${path}`,
    headers: { "content-type": "application/x-www-form-urlencoded", ...(idempotencyKey !== undefined ? { "idempotency-key": idempotencyKey } : {}) },
    body,
    timeoutMs: 60_000,
  });
  const reply = JSON.parse(r.text) as Omit<DispatchReply<T>, "httpStatus">;
  const replayed = r.headers["idempotent-replayed"];
  return { reply: { ...reply, httpStatus: r.status }, text: r.text, replayed: typeof replayed === "string" ? replayed : undefined };
}

type Sent = Posted<{ uuid: string; message: string }>;

const create = (params: Record<string, string>, idempotencyKey?: string, apiKey = keyA): Promise<Sent> =>
  post<{ uuid: string; message: string }>("order", params, idempotencyKey, apiKey);

const order = (phone: string, house = "2") => ({ phone, street: "ул. Ленина", house, moderation_required: "no", need_notify: "no" });

/** Orders by phone, counted at the end in the database (PGlite opens only while no server runs). */
const expected = new Map<string, number>();
let expiredKey = "";
let expiredPhone = "";
let expiredUuid = "";
/** Ledger entries by their reason (unique per case), counted at the end like the orders. */
const expectedEntries = new Map<string, { ledger: "customer_ledger_entry" | "driver_ledger_entry"; count: number }>();
/** A customer and a driver of the seeded template, paid by the payment cases. */
let customerId = 0;
let driverCode = "";

beforeAll(async () => {
  database = await freshDatabase();
  await database.use(async (prisma) => {
    await issueApiKey(prisma, { name: "idempotency A", key: keyA });
    await issueApiKey(prisma, { name: "idempotency B", key: keyB });
    customerId = (await prisma.customer.findFirstOrThrow({ orderBy: { id: "asc" }, select: { id: true } })).id;
    driverCode = (await prisma.driver.findFirstOrThrow({ orderBy: { id: "asc" }, select: { callSign: true } })).callSign;
  });
  app = await startInstance(database, { env: { RATE_LIMIT_PER_KEY: "0", RATE_LIMIT_PER_ADDRESS: "0" } });
  api = dispatchClient(app.url, keyA);
  other = dispatchClient(app.url, keyB);
}, 300_000);

afterAll(async () => {
  closeAgents();
  await app?.stop();
  await database?.drop();
});

type Balance = { balance: number };

const balanceOf = async (path: "customer/balance" | "driver/balance", params: Record<string, string>) => {
  const r = await api.get<Balance>(path, params);
  expect(r.status, JSON.stringify(r.error)).toBe("DONE");
  return r.response.balance;
};

/** Roubles with kopecks as the API answers them. */
const plus = (a: number, b: number) => Math.round((a + b) * 100) / 100;

describe("Idempotency-Key on every creating POST", () => {
  it("a customer payment without txn_id, replayed with its key: the first reply, paid once", async () => {
    const params = { customer_id: String(customerId), amount: "10.5", reason: `idem-customer-replay-${randomUUID()}` };
    const before = await balanceOf("customer/balance", { customer_id: String(customerId) });
    const key = randomUUID();
    const first = await post<Balance>("customer/balance", params, key);
    expect(first.reply.status, first.text).toBe("DONE");
    expect(first.replayed).toBeUndefined();
    expect(first.reply.response.balance).toBe(plus(before, 10.5));
    for (let i = 0; i < 3; i++) {
      const again = await post<Balance>("customer/balance", params, key);
      expect(again.text).toBe(first.text);
      expect(again.reply.httpStatus).toBe(first.reply.httpStatus);
      expect(again.replayed).toBe("true");
    }
    expect(await balanceOf("customer/balance", { customer_id: String(customerId) })).toBe(plus(before, 10.5));
    expectedEntries.set(params.reason, { ledger: "customer_ledger_entry", count: 1 });
  });

  it("a customer payment: the same key with another body is refused, nothing paid", async () => {
    const params = { customer_id: String(customerId), amount: "3", reason: `idem-customer-reused-${randomUUID()}` };
    const key = randomUUID();
    const first = await post<Balance>("customer/balance", params, key);
    expect(first.reply.status, first.text).toBe("DONE");
    const after = await balanceOf("customer/balance", { customer_id: String(customerId) });
    for (const changed of [{ ...params, amount: "4" }, { ...params, txn_id: `other-${randomUUID()}` }]) {
      const r = await post<Balance>("customer/balance", changed, key);
      expect(r.reply.status, r.text).toBe("ERROR");
      expect(r.reply.httpStatus).toBe(200);
      expect(r.reply.error?.code).toBe("IDEMPOTENCY_KEY_REUSED");
      expect(r.replayed).toBeUndefined();
    }
    // The same payment to another key's namespace is that key's own (keys are per API key).
    const theirs = await post<Balance>("customer/balance", params, key, keyB);
    expect(theirs.reply.status, theirs.text).toBe("DONE");
    expect(theirs.reply.response.balance).toBe(plus(after, 3));
    expect(await balanceOf("customer/balance", { customer_id: String(customerId) })).toBe(plus(after, 3));
    expectedEntries.set(params.reason, { ledger: "customer_ledger_entry", count: 2 });
  });

  it("ten customer payments with one key at once pay once, and all answer the same", async () => {
    const params = { customer_id: String(customerId), amount: "1", reason: `idem-customer-burst-${randomUUID()}` };
    const before = await balanceOf("customer/balance", { customer_id: String(customerId) });
    const key = randomUUID();
    const replies = await Promise.all(Array.from({ length: 10 }, () => post<Balance>("customer/balance", params, key)));
    for (const r of replies) expect(r.reply.status, r.text).toBe("DONE");
    expect(new Set(replies.map((r) => r.text)).size).toBe(1);
    expect(replies.filter((r) => r.replayed === undefined).length).toBe(1);
    expect(await balanceOf("customer/balance", { customer_id: String(customerId) })).toBe(plus(before, 1));
    expectedEntries.set(params.reason, { ledger: "customer_ledger_entry", count: 1 });
  });

  it("a driver payment: replayed with its key answers the first reply; the key with another body is refused", async () => {
    const txn = `idem-txn-${randomUUID()}`;
    const params = { driver_code: driverCode, txn_id: txn, amount: "2.25", reason: `idem-driver-${randomUUID()}` };
    const before = await balanceOf("driver/balance", { driver_code: driverCode });
    const key = randomUUID();
    const first = await post<Balance>("driver/balance", params, key);
    expect(first.reply.status, first.text).toBe("DONE");
    expect(first.reply.response.balance).toBe(plus(before, 2.25));
    const again = await post<Balance>("driver/balance", params, key);
    expect(again.text).toBe(first.text);
    expect(again.replayed).toBe("true");
    const changed = await post<Balance>("driver/balance", { ...params, txn_id: `${txn}-2` }, key);
    expect(changed.reply.error?.code, changed.text).toBe("IDEMPOTENCY_KEY_REUSED");
    // The same txn_id under a new key is the payment made before (the reference's own
    // idempotency): its balance, nothing paid; and that key is kept from now on.
    const newKey = randomUUID();
    const byTxn = await post<Balance>("driver/balance", params, newKey);
    expect(byTxn.reply.status, byTxn.text).toBe("DONE");
    expect(byTxn.reply.response.balance).toBe(first.reply.response.balance);
    const byTxnAgain = await post<Balance>("driver/balance", params, newKey);
    expect(byTxnAgain.text).toBe(byTxn.text);
    expect(byTxnAgain.replayed).toBe("true");
    expect((await post<Balance>("driver/balance", { ...params, amount: "3" }, newKey)).reply.error?.code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(await balanceOf("driver/balance", { driver_code: driverCode })).toBe(plus(before, 2.25));
    expectedEntries.set(params.reason, { ledger: "driver_ledger_entry", count: 1 });
  });

  it("the served document lists the header on every creating POST, and every other POST is a move or a setting", async () => {
    // A POST that creates something (an order, a ledger entry) must take the key; the others
    // change what exists and are safe to repeat by their nature, named here with why.
    const creating = ["/api/order", "/api/driver/balance", "/api/customer/balance"];
    const notCreating: Record<string, string> = {
      "/api/cancel_order": "a move of the state machine: a repeat is a forbidden move or changes nothing",
      "/api/order/status": "a move of the state machine, as cancel_order",
      "/api/callback": "sets the key's one callback (a repeat sets it again)",
      "/api/callback/test": "sends a test callback and stores nothing",
    };
    const r = await send(app.url, { method: "GET", path: "/api/openapi.json", timeoutMs: 30_000 });
    const doc = JSON.parse(r.text) as { paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; "x-error-codes"?: Array<{ code: string }> }>> };
    const posts = Object.entries(doc.paths).flatMap(([path, item]) => (item.post ? [[path, item.post] as const] : []));
    expect(posts.map(([path]) => path).sort()).toEqual([...creating, ...Object.keys(notCreating)].sort());
    for (const [path, operation] of posts) {
      const takesKey = operation.parameters?.some((p) => p.name === "Idempotency-Key" && p.in === "header") ?? false;
      expect(takesKey, path).toBe(creating.includes(path));
      expect(operation["x-error-codes"]?.some((e) => e.code === "IDEMPOTENCY_KEY_REUSED"), path).toBe(creating.includes(path));
    }
  });
});

describe("Idempotency-Key on order creation", () => {
  it("a replay answers the first reply and creates nothing", async () => {
    const phone = newPhone();
    const key = randomUUID();
    const first = await create(order(phone), key);
    expect(first.reply.status, first.text).toBe("DONE");
    expect(first.replayed).toBeUndefined();
    for (let i = 0; i < 3; i++) {
      const again = await create(order(phone), key);
      expect(again.text).toBe(first.text);
      expect(again.reply.httpStatus).toBe(first.reply.httpStatus);
      expect(again.replayed).toBe("true");
    }
    // The order is there and is the one the replies name.
    const info = await api.get<{ uuid: string }>("order", { uuid: first.reply.response.uuid });
    expect(info.status, JSON.stringify(info.error)).toBe("DONE");
    expected.set(phone, 1);
  });

  it("the same key with other parameters is refused, nothing created", async () => {
    const phone = newPhone();
    const key = randomUUID();
    const first = await create(order(phone), key);
    expect(first.reply.status, first.text).toBe("DONE");
    const changed = await create(order(phone, "4"), key);
    expect(changed.reply.status).toBe("ERROR");
    expect(changed.reply.httpStatus).toBe(200);
    expect(changed.reply.error?.code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(changed.reply.error?.message).toMatch(/Idempotency-Key/);
    // Unknown parameters are ignored by the API, so they do not make a request different.
    const withStale = await create({ ...order(phone), stale_parameter: "x" }, key);
    expect(withStale.text).toBe(first.text);
    expected.set(phone, 1);
  });

  it("the key is per API key: another key's same Idempotency-Key is its own", async () => {
    const phone = newPhone();
    const key = randomUUID();
    const mine = await create(order(phone), key, keyA);
    const theirs = await create(order(phone), key, keyB);
    expect(mine.reply.status, mine.text).toBe("DONE");
    expect(theirs.reply.status, theirs.text).toBe("DONE");
    expect(theirs.reply.response.uuid).not.toBe(mine.reply.response.uuid);
    expected.set(phone, 2);
  });

  it("20 creates with one key at once make exactly one order, and all answer it", async () => {
    const phone = newPhone();
    const key = randomUUID();
    const replies = await Promise.all(Array.from({ length: 20 }, () => create(order(phone), key)));
    for (const r of replies) expect(r.reply.status, r.text).toBe("DONE");
    expect(new Set(replies.map((r) => r.reply.response.uuid)).size).toBe(1);
    expect(replies.filter((r) => r.replayed === undefined).length).toBe(1);
    expected.set(phone, 1);
  });

  it("a price token replayed by the key that used it answers its order; another key gets TOKEN_USED", async () => {
    const token = await priceToken(api, "6");
    const phone = newPhone();
    const first = await create({ token, phone, moderation_required: "no" });
    expect(first.reply.status, first.text).toBe("DONE");
    const again = await create({ token, phone, moderation_required: "no" });
    expect(again.reply.status, again.text).toBe("DONE");
    expect(again.reply.response).toEqual(first.reply.response);
    expect(again.replayed).toBe("true");
    const foreign = await other.post("order", { token, phone, moderation_required: "no" });
    expect(foreign.error?.code).toBe("TOKEN_USED");
    expected.set(phone, 1);
  });

  it("a token create with a key, replayed at once 10 times: one order, one reply", async () => {
    const token = await priceToken(api, "8");
    const phone = newPhone();
    const key = randomUUID();
    const replies = await Promise.all(Array.from({ length: 10 }, () => create({ token, phone, moderation_required: "no" }, key)));
    for (const r of replies) expect(r.reply.status, r.text).toBe("DONE");
    expect(new Set(replies.map((r) => r.reply.response.uuid)).size).toBe(1);
    expected.set(phone, 1);
  });

  it("malformed keys are refused with BAD_PARAMETER, nothing created", async () => {
    const phone = newPhone();
    for (const bad of ["x".repeat(256), "with space", "tab\there", "", '""']) {
      const r = await create(order(phone), bad);
      expect(r.reply.status, `${JSON.stringify(bad)}: ${r.text}`).toBe("ERROR");
      expect(r.reply.error?.code).toBe("BAD_PARAMETER");
      expect(r.reply.error?.message).toMatch(/Idempotency-Key/);
    }
    // Quoted as a structured-field string (the draft's form) it is the same key as bare.
    const key = randomUUID();
    const quoted = await create(order(phone), `"${key}"`);
    const bare = await create(order(phone), key);
    expect(quoted.reply.status, quoted.text).toBe("DONE");
    expect(bare.text).toBe(quoted.text);
    expect(bare.replayed).toBe("true");
    expected.set(phone, 1);
  });

  it("clients that send no key work as before: two posts, two orders", async () => {
    const phone = newPhone();
    const one = await create(order(phone));
    const two = await create(order(phone));
    expect(one.reply.status).toBe("DONE");
    expect(two.reply.status).toBe("DONE");
    expect(two.reply.response.uuid).not.toBe(one.reply.response.uuid);
    expect(two.replayed).toBeUndefined();
    expected.set(phone, 2);
  });

  it("the OpenAPI document names the header", async () => {
    const r = await send(app.url, { method: "GET", path: "/api/openapi.json", timeoutMs: 30_000 });
    const doc = JSON.parse(r.text) as { paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>> };
    expect(doc.paths["/api/order"]?.post?.parameters?.some((p) => p.name === "Idempotency-Key" && p.in === "header")).toBe(true);
  });

  it("the database holds exactly the orders the replies promised, and one key row each", async () => {
    expiredPhone = newPhone();
    expiredKey = randomUUID();
    const first = await create(order(expiredPhone), expiredKey);
    expect(first.reply.status, first.text).toBe("DONE");
    expiredUuid = first.reply.response.uuid;
    // PGlite opens only while no server runs on it.
    await app.kill("SIGTERM");
    await database.use(async (_prisma, query) => {
      for (const [phone, count] of expected) {
        const rows = await query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE phone = $1`, [phone]);
        expect(rows[0]!.n, phone).toBe(count);
      }
      for (const [reason, { ledger, count }] of expectedEntries) {
        const rows = await query<{ n: number }>(`SELECT count(*)::int AS n FROM ${ledger} WHERE reason = $1`, [reason]);
        expect(rows[0]!.n, `${ledger}: ${reason}`).toBe(count);
      }
      const keys = await query<{ n: number }>(`SELECT count(*)::int AS n FROM idempotency_key WHERE key = $1`, [expiredKey]);
      expect(keys[0]!.n).toBe(1);
      // Past the retention (24 hours by default).
      await query(`UPDATE idempotency_key SET created_at = created_at - interval '25 hours' WHERE key = $1`, [expiredKey]);
    });
    await app.start();
  });

  it("a key past its retention is forgotten: the same key creates again", async () => {
    const again = await create(order(expiredPhone), expiredKey);
    expect(again.reply.status, again.text).toBe("DONE");
    expect(again.replayed).toBeUndefined();
    expect(again.reply.response.uuid).not.toBe(expiredUuid);
    // And is kept again from now on.
    const third = await create(order(expiredPhone), expiredKey);
    expect(third.text).toBe(again.text);
    expect(third.replayed).toBe("true");
  });
});
