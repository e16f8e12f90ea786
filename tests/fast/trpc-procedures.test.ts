// The fast tier: every console procedure called through the router's
// createCaller on an embedded database (no build, no HTTP, no browser).
// The router is walked, so a procedure without an entry in
// ./support/expectations.ts fails here. For each procedure:
//   - without a session, with a disabled user, with an expired session: UNAUTHORIZED, no audit row;
//   - each role not allowed (and a user without roles): FORBIDDEN, in the operator's language;
//     a refused mutation is still audited (who tried what);
//   - an input its schema refuses: BAD_REQUEST with zod's issues, audited for mutations;
//   - calls by an allowed role: a result, or the domain error mapped to its tRPC code;
//     a mutation leaves exactly one audit row (entity, who, ok or the error), a query none.
// All refusals together change nothing but the audit log (every table hashed before and after).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { openLocalDb } from "../support/local-db";
import { connection, db } from "@/server/db";
import { appRouter } from "@/server/trpc/root";
import { publish } from "@/server/events/bus";
import { CONSOLE_FLUSH_MS } from "@/server/events/console-batch";
import { SESSION_MAX_AGE_SECONDS } from "@/server/auth/next-auth";
import type { UserRole } from "@/server/generated/prisma/enums";
import { fingerprint } from "../reliability/support/db";
import { callPath, callerOf, operator, outcomeOf, ROLES, type Operator } from "./support/callers";
import { EXPECTATIONS, type Expectation } from "./support/expectations";
import { loadFixtures, type Fixtures } from "./support/fixtures";

type ProcedureType = "query" | "mutation" | "subscription";
const procedures = Object.entries((appRouter._def as unknown as { procedures: Record<string, { _def: { type: ProcedureType } }> }).procedures).map(([path, p]) => ({
  path,
  type: p._def.type,
}));

let close: () => Promise<void>;
let fx: Fixtures;
/** One user per role, holding only that role; and one without roles. */
const single = {} as Record<UserRole, Operator>;
let roleless: Operator;
let disabled: Operator;
let expired: Operator;

beforeAll(async () => {
  ({ close } = await openLocalDb());
  for (const role of ROLES) single[role] = await operator([role]);
  roleless = await operator([]);
  disabled = await operator(["ADMIN", "DISPATCHER", "ACCOUNTANT", "EXCHANGE_OPERATOR"], { disabled: true });
  expired = await operator(["ADMIN", "DISPATCHER", "ACCOUNTANT", "EXCHANGE_OPERATOR"], { loginAt: Date.now() - (SESSION_MAX_AGE_SECONDS + 60) * 1000 });
  fx = await loadFixtures((await operator(["DISPATCHER"])).id);
}, 180_000);

afterAll(async () => {
  await close?.();
});

function expectationOf(path: string): Expectation {
  const e = EXPECTATIONS[path];
  if (!e) throw new Error(`${path}: no entry in tests/fast/support/expectations.ts`);
  return e;
}

function allowed(e: Expectation, role: UserRole): boolean {
  return e.access === "any operator" || e.access.includes(role);
}

/** Who calls an allowed case: a user holding only the first allowed role (or no role at all). */
function allowedCaller(e: Expectation): Operator {
  return e.access === "any operator" ? roleless : single[e.access[0]!];
}

async function lastAuditId(): Promise<number> {
  return (await db().auditLog.findFirst({ orderBy: { id: "desc" }, select: { id: true } }))?.id ?? 0;
}

async function auditSince(id: number) {
  return db().auditLog.findMany({ where: { id: { gt: id } }, orderBy: { id: "asc" }, select: { userId: true, action: true, entity: true, entityId: true, details: true } });
}

/** A call's outcome for a failure message (bigints as text). */
function show(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v)).slice(0, 2000);
}

const callable = () => procedures.filter((p) => p.type !== "subscription");

describe("the expectations cover the router", () => {
  it("every procedure has an entry, and every entry a procedure", () => {
    const paths = procedures.map((p) => p.path).sort();
    expect(paths.filter((p) => !EXPECTATIONS[p]), "procedures without expectations").toEqual([]);
    expect(Object.keys(EXPECTATIONS).filter((p) => !paths.includes(p)), "expectations of no procedure").toEqual([]);
  });

  it("mutations are audited, queries are not; calls are given or their absence explained", () => {
    for (const p of procedures) {
      const e = expectationOf(p.path);
      if (p.type === "mutation") expect(e.audit, p.path).toEqual(expect.any(String));
      else expect(e.audit, p.path).toBe(false);
      expect(e.cases.length > 0 || Boolean(e.why), `${p.path}: no call and no reason`).toBe(true);
    }
  });
});

describe("refusals change nothing but the audit log", () => {
  let before: Awaited<ReturnType<typeof fingerprint>>;
  beforeAll(async () => {
    before = await fingerprint(connection().query, ["audit_log"]);
  });

  it("no session, a disabled user, an expired session: UNAUTHORIZED, and no audit row", async () => {
    const mark = await lastAuditId();
    for (const p of callable()) {
      const e = expectationOf(p.path);
      for (const who of [null, disabled, expired]) {
        const r = await outcomeOf(callPath(callerOf(who), p.path, e.bad ?? undefined));
        expect(r, `${p.path} as ${who?.email ?? "nobody"}`).toMatchObject({ ok: false, code: "UNAUTHORIZED" });
      }
    }
    expect(await auditSince(mark)).toEqual([]);
  });

  it("each role not allowed, and a user without roles: FORBIDDEN; a refused mutation is audited", async () => {
    for (const p of callable()) {
      const e = expectationOf(p.path);
      const refused = [...ROLES.filter((role) => !allowed(e, role)).map((role) => single[role]), ...(e.access === "any operator" ? [] : [roleless])];
      for (const who of refused) {
        const mark = await lastAuditId();
        // The bad input too: roles are checked before the input is read.
        const r = await outcomeOf(callPath(callerOf(who), p.path, e.bad ?? undefined));
        expect(r, `${p.path} as ${who.roles.join() || "no roles"}`).toMatchObject({ ok: false, code: "FORBIDDEN", domainCode: null });
        const rows = await auditSince(mark);
        if (p.type === "mutation") expect(rows, p.path).toEqual([{ userId: who.id, action: p.path, entity: e.audit, entityId: expect.anything(), details: expect.objectContaining({ ok: false, error: "FORBIDDEN" }) }].map(({ entityId: _id, ...row }) => expect.objectContaining(row)));
        else expect(rows, p.path).toEqual([]);
      }
    }
  }, 180_000); // every procedure × every role (five now, with MANAGER): minutes on a loaded machine

  it("an input the schema refuses: BAD_REQUEST with zod's issues; a refused mutation is audited", async () => {
    for (const p of callable()) {
      const e = expectationOf(p.path);
      if (e.bad === null) continue;
      const who = allowedCaller(e);
      const mark = await lastAuditId();
      let thrown: unknown;
      const r = await outcomeOf(
        callPath(callerOf(who), p.path, e.bad).catch((error: unknown) => {
          thrown = error;
          throw error;
        }),
      );
      expect(r, p.path).toMatchObject({ ok: false, code: "BAD_REQUEST", domainCode: null });
      expect((thrown as { cause?: unknown }).cause, p.path).toBeInstanceOf(ZodError);
      const rows = await auditSince(mark);
      if (p.type === "mutation") expect(rows, p.path).toEqual([expect.objectContaining({ userId: who.id, action: p.path, entity: e.audit, details: expect.objectContaining({ ok: false, error: "BAD_REQUEST" }) })]);
      else expect(rows, p.path).toEqual([]);
    }
  });

  it("the database is as before", async () => {
    expect(await fingerprint(connection().query, ["audit_log"])).toEqual(before);
  });
});

describe("calls by an allowed role", () => {
  for (const [path, e] of Object.entries(EXPECTATIONS)) {
    for (const c of e.cases) {
      it(`${path}: ${c.what}`, async () => {
        const type = procedures.find((p) => p.path === path)?.type;
        const who = allowedCaller(e);
        const input = await c.input(fx, who);
        const mark = await lastAuditId();
        const r = await outcomeOf(callPath(callerOf(who), path, input));
        if (c.gives === "ok") expect(r, show(r)).toMatchObject({ ok: true });
        else expect(r, show(r)).toMatchObject({ ok: false, ...c.gives });
        const rows = await auditSince(mark);
        if (type === "mutation") {
          expect(rows).toHaveLength(1);
          expect(rows[0]).toMatchObject({ userId: who.id, action: path, entity: e.audit });
          expect(rows[0]!.details).toMatchObject(c.gives === "ok" ? { ok: true } : { ok: false, error: c.gives.domainCode });
        } else {
          // Reads write nothing to the audit log (a case's own setup may, before the mark).
          expect(rows).toEqual([]);
        }
      });
    }
  }
});

describe("messages in the operator's language", () => {
  it("a refused role and a domain error, in Russian and in English", async () => {
    const forbidden = { en: await outcomeOf(callerOf(single.ACCOUNTANT, "en").orders.counts()), ru: await outcomeOf(callerOf(single.ACCOUNTANT, "ru").orders.counts()) };
    expect(forbidden.en).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(forbidden.ru).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(forbidden.ru.ok ? "" : forbidden.ru.message).toMatch(/[А-Яа-яЁё]/);
    expect(forbidden.en.ok ? "" : forbidden.en.message).not.toMatch(/[А-Яа-яЁё]/);
    const missing = { en: await outcomeOf(callerOf(single.DISPATCHER, "en").orders.get({ id: 999_999 })), ru: await outcomeOf(callerOf(single.DISPATCHER, "ru").orders.get({ id: 999_999 })) };
    expect(missing.ru.ok ? "" : missing.ru.message).toMatch(/[А-Яа-яЁё]/);
    expect(missing.en.ok ? "" : missing.en.message).not.toMatch(/[А-Яа-яЁё]/);
  });

  it("a user disabled while signed in is out at the next call", async () => {
    const who = await operator(["DISPATCHER"]);
    expect(await outcomeOf(callerOf(who).orders.counts())).toMatchObject({ ok: true });
    await db().user.update({ where: { id: who.id }, data: { disabled: true } });
    expect(await outcomeOf(callerOf(who).orders.counts())).toMatchObject({ ok: false, code: "UNAUTHORIZED" });
  });
});

describe("live.events", () => {
  it("refuses a caller without a session", async () => {
    expect(await outcomeOf(callerOf(null).live.events())).toMatchObject({ ok: false, code: "UNAUTHORIZED" });
  });

  it("gives each role its events: an event of another role never comes before a later one of its own", async () => {
    const streams = await Promise.all(
      (["DISPATCHER", "ACCOUNTANT"] as const).map(async (role) => ({ role, iterator: (await callerOf(single[role]).live.events())[Symbol.asyncIterator]() })),
    );
    // Both streams are subscribed once their first next() runs; the events go out after that.
    const firsts = streams.map((s) => s.iterator.next());
    await new Promise<void>((resolve) => setImmediate(resolve));
    publish({ type: "order.created", orderId: fx.orderId, uuid: "fast-tier", state: "FREE", statusCode: 9, regionId: null });
    publish({ type: "balance.changed", account: "driver", id: fx.driverId, balance: "0" });
    const [dispatcher, accountant] = await Promise.all(firsts);
    // Delivery is in order: the accountant's first event is the balance (the order, published first, was not theirs).
    expect(dispatcher?.value).toMatchObject({ events: [{ type: "order.created", orderId: fx.orderId }] });
    expect(accountant?.value).toMatchObject({ events: [{ type: "balance.changed", id: fx.driverId }] });
    for (const s of streams) await s.iterator.return?.();
  });

  it("sends the cars' changes to every dispatcher as one batch of rows, as JSON text the page parses", async () => {
    const streams = await Promise.all([0, 1].map(async () => (await callerOf(single.DISPATCHER).live.events())[Symbol.asyncIterator]()));
    const firsts = streams.map((s) => s.next());
    await new Promise<void>((resolve) => setImmediate(resolve));
    publish({ type: "driver.changed", driverId: 4_000_001, callSign: "W1", state: "FREE", lat: 55.75, lon: 37.61, speed: 30, bearing: 90, regionId: null });
    const messages = await Promise.all(firsts);
    for (const m of messages) {
      const events = (m.value as { events: Array<{ type: string; rowsJson?: string }> }).events;
      expect(events.map((e) => e.type)).toEqual(["drivers.changed"]);
      expect(JSON.parse(events[0]!.rowsJson!)).toEqual([[4_000_001, "W1", "FREE", 55.75, 37.61, 30, 90, null]]);
    }
    for (const s of streams) await s.return?.();
  });

  it("sends what gathered as one message, each order once in its latest state, and then at most one message every CONSOLE_FLUSH_MS", async () => {
    const iterator = (await callerOf(single.DISPATCHER).live.events())[Symbol.asyncIterator]();
    const first = iterator.next();
    await new Promise<void>((resolve) => setImmediate(resolve));
    const change = (orderId: number, state: string) => publish({ type: "order.changed", orderId, uuid: `fast-${orderId}`, state, statusCode: 9, driverId: null, regionId: null });
    for (let i = 0; i < 30; i++) change(1_000_000 + (i % 3), `S${i}`);
    const burst = await first;
    expect(burst.value).toEqual({
      events: [27, 28, 29].map((i) => ({ type: "order.changed", orderId: 1_000_000 + (i % 3), uuid: `fast-${1_000_000 + (i % 3)}`, state: `S${i}`, statusCode: 9, driverId: null, regionId: null })),
    });
    const sentAt = performance.now();
    change(1_000_000, "LATER");
    const later = await iterator.next();
    expect(later.value).toMatchObject({ events: [{ orderId: 1_000_000, state: "LATER" }] });
    // Timers may fire a millisecond early.
    expect(performance.now() - sentAt).toBeGreaterThanOrEqual(CONSOLE_FLUSH_MS - 5);
    await iterator.return?.();
  });
});
