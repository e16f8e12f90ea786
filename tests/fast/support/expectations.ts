// What every console procedure promises: who may call it, whether it leaves
// an audit row, an input its schema refuses, and calls by an allowed role
// with what they give (a result, or a domain error mapped to a tRPC code).
// tests/fast/trpc-procedures.test.ts walks the router and fails for a
// procedure missing here, so a new procedure comes with its expectations.
import { randomBytes } from "node:crypto";
import type { TRPCError } from "@trpc/server";
import { db } from "@/server/db";
import { createOrder } from "@/server/orders/create-order";
import { issueApiKey } from "@/server/auth/api-keys";
import { moveOrder } from "@/server/orders/move-order";
import type { ErrorCode } from "@/server/errors";
import type { UserRole } from "@/server/generated/prisma/enums";
import { BLACKLISTED_PHONE, type Fixtures } from "./fixtures";
import type { Operator } from "./callers";

export type Gives = "ok" | { code: TRPCError["code"]; domainCode: ErrorCode };

export interface Case {
  /** What the call shows (test name). */
  what: string;
  input: (fx: Fixtures, me: Operator) => unknown;
  gives: Gives;
}

export interface Expectation {
  /** Roles that may call it; "any operator": every signed-in, enabled user, even one without roles. */
  access: readonly UserRole[] | "any operator";
  /** Mutations: the audit row's entity; false: no audit row (queries, subscriptions). */
  audit: string | false;
  /** An input the schema refuses (BAD_REQUEST); null: the procedure takes no input. */
  bad: unknown;
  /** Calls by an allowed role. Empty only with `why`. */
  cases: Case[];
  /** Why there is no call here (where it is tested instead). */
  why?: string;
}

const DISPATCHER = ["DISPATCHER"] as const;
const ADMIN = ["ADMIN"] as const;
const ACCOUNTANT = ["ACCOUNTANT", "ADMIN"] as const;
const DESK = ["EXCHANGE_OPERATOR", "DISPATCHER"] as const;
const OPERATOR = ["EXCHANGE_OPERATOR"] as const;

const MISSING = 999_999;
const ok = (what: string, input: Case["input"]): Case => ({ what, input, gives: "ok" });
const notFound = (what: string, input: Case["input"]): Case => ({ what, input, gives: { code: "NOT_FOUND", domainCode: "NOT_FOUND" } });
const unique = () => randomBytes(4).toString("hex");

/** A free order of the demo city, for calls that change it. */
async function freshOrder(): Promise<{ id: number; version: number }> {
  const order = await createOrder(db(), { source: "CONSOLE", phone: "89161112244", pickup: { street: "ул. Ленина", house: "4" }, moderationRequired: false }, { type: "SYSTEM", id: "fast-tier" });
  const row = await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { version: true } });
  return { id: order.id, version: row.version };
}

const pickup = { street: "ул. Ленина", house: "2" };

/** A distribution rule for dispatch.saveSettings (manual only). */
const DISPATCH_RULE = {
  regionId: null, mode: "MANUAL", strategy: "GREEDY", acceptSeconds: 20, attempts: 3, radiusKm: 5, freeLongMinutes: 5, batchSeconds: 5,
  fairnessWeight: 2, chainMinutes: 4, minBalance: -100_000, advanceLeadMinutes: 60, confirmLeadMinutes: 20,
};

export const EXPECTATIONS: Record<string, Expectation> = {
  "session.me": { access: "any operator", audit: false, bad: null, cases: [ok("who am I", () => undefined)] },
  "session.setLocale": { access: "any operator", audit: "user", bad: { locale: "de" }, cases: [ok("remembers the language", () => ({ locale: "en" }))] },

  "orders.board": { access: DISPATCHER, audit: false, bad: { filter: {}, limit: 5 }, cases: [ok("the board", () => ({ filter: {} }))] },
  "orders.boardRows": { access: DISPATCHER, audit: false, bad: { filter: {}, ids: "1" }, cases: [ok("rows by id", (fx) => ({ filter: {}, ids: [fx.orderId] }))] },
  "orders.moderation": { access: DISPATCHER, audit: false, bad: null, cases: [ok("the moderation queue", () => undefined)] },
  "orders.counts": { access: DISPATCHER, audit: false, bad: null, cases: [ok("counts", () => undefined)] },
  "orders.get": {
    access: DISPATCHER,
    audit: false,
    bad: { id: 0 },
    cases: [ok("an order", (fx) => ({ id: fx.orderId })), notFound("an unknown order", () => ({ id: MISSING }))],
  },
  "orders.move": {
    access: DISPATCHER,
    audit: "order",
    bad: { orderId: 1, to: "NOWHERE", expectedVersion: 0 },
    cases: [
      ok("cancels a free order", async () => {
        const order = await freshOrder();
        return { orderId: order.id, to: "DONE_CANCELLED", expectedVersion: order.version, reason: "fast tier" };
      }),
      notFound("an unknown order", () => ({ orderId: MISSING, to: "DONE_CANCELLED", expectedVersion: 0 })),
      {
        what: "a move the state machine forbids (a cancelled order back to free)",
        input: async () => {
          const order = await freshOrder();
          const moved = await moveOrder(db(), { orderId: order.id, to: "DONE_CANCELLED", actor: { type: "SYSTEM", id: "fast-tier" } });
          return { orderId: order.id, to: "FREE", expectedVersion: moved.version };
        },
        gives: { code: "UNPROCESSABLE_CONTENT", domainCode: "FORBIDDEN_MOVE" },
      },
    ],
  },
  "orders.approve": { access: DISPATCHER, audit: "order", bad: { orderId: "x", expectedVersion: 0 }, cases: [notFound("an unknown order", () => ({ orderId: MISSING, expectedVersion: 0 }))] },
  "orders.reject": { access: DISPATCHER, audit: "order", bad: { orderId: 1, expectedVersion: 0, reason: "" }, cases: [notFound("an unknown order", () => ({ orderId: MISSING, expectedVersion: 0, reason: "fast tier" }))] },
  "orders.update": {
    access: DISPATCHER,
    audit: "order",
    bad: { orderId: 1, expectedVersion: -1 },
    cases: [
      ok("edits the comment", async () => {
        const order = await freshOrder();
        return { orderId: order.id, expectedVersion: order.version, comment: "fast tier" };
      }),
      notFound("an unknown order", () => ({ orderId: MISSING, expectedVersion: 0, comment: "x" })),
    ],
  },
  "orders.recentAddresses": { access: DISPATCHER, audit: false, bad: { phone: 89161112233 }, cases: [ok("a caller's addresses", () => ({ phone: "89161112233" }))] },
  "orders.estimate": { access: DISPATCHER, audit: false, bad: { pickup: { street: "" } }, cases: [ok("a price", () => ({ pickup }))] },
  "orders.create": {
    access: DISPATCHER,
    audit: "order",
    bad: { phone: "1", pickup },
    cases: [ok("a phone order", () => ({ phone: "89161112233", pickup })), notFound("an unknown service", () => ({ phone: "89161112233", pickup, serviceId: MISSING })), { what: "a blacklisted phone", input: () => ({ phone: BLACKLISTED_PHONE, pickup }), gives: { code: "UNPROCESSABLE_CONTENT", domainCode: "BLACKLISTED" } }],
  },

  "dispatch.settings": { access: ["ADMIN", "DISPATCHER"], audit: false, bad: null, cases: [ok("the distribution rules", () => undefined)] },
  "dispatch.saveSettings": {
    access: ADMIN,
    audit: "dispatchSetting",
    bad: { serviceId: -1 },
    cases: [
      ok("a service's rule (manual only: nothing dispatches in this tier)", (fx) => ({ ...DISPATCH_RULE, serviceId: fx.serviceId })),
      notFound("an unknown service", () => ({ ...DISPATCH_RULE, serviceId: MISSING })),
    ],
  },
  "dispatch.deleteSettings": { access: ADMIN, audit: "dispatchSetting", bad: { id: 0 }, cases: [notFound("an unknown rule", () => ({ id: MISSING }))] },
  "dispatch.order": { access: DISPATCHER, audit: false, bad: { orderId: "x" }, cases: [ok("the order's offers and control", (fx) => ({ orderId: fx.orderId }))] },
  "dispatch.candidates": { access: DISPATCHER, audit: false, bad: { orderId: 0 }, cases: [ok("drivers with arrival times", (fx) => ({ orderId: fx.orderId }))] },
  "dispatch.pause": {
    access: DISPATCHER,
    audit: "order",
    bad: { orderId: 1, paused: "yes" },
    cases: [ok("pauses a free order", async () => ({ orderId: (await freshOrder()).id, paused: true })), notFound("an unknown order", () => ({ orderId: MISSING, paused: true }))],
  },
  "dispatch.send": { access: DISPATCHER, audit: "order", bad: { orderId: 1, driverId: "x" }, cases: [notFound("an unknown order", (fx) => ({ orderId: MISSING, driverId: fx.driverId }))] },
  "dispatch.takeBack": {
    access: DISPATCHER,
    audit: "order",
    bad: { orderId: "x" },
    cases: [
      notFound("an unknown order", () => ({ orderId: MISSING })),
      { what: "a free order has no driver to take it from", input: async () => ({ orderId: (await freshOrder()).id }), gives: { code: "CONFLICT", domainCode: "CONFLICT" } },
    ],
  },
  "dispatch.queues": { access: DISPATCHER, audit: false, bad: { cityId: "x" }, cases: [ok("parking queues", () => ({}))] },
  "dispatch.trouble": { access: DISPATCHER, audit: false, bad: null, cases: [ok("orders in trouble", () => undefined)] },

  "reference.lookups": { access: "any operator", audit: false, bad: null, cases: [ok("cities, services, regions", () => undefined)] },
  "reference.streets": { access: DISPATCHER, audit: false, bad: { q: "" }, cases: [ok("street search", () => ({ q: "Лен" }))] },
  "reference.assignableDrivers": { access: DISPATCHER, audit: false, bad: { serviceId: -1 }, cases: [ok("drivers", () => ({}))] },
  "drivers.list": { access: DISPATCHER, audit: false, bad: { state: "ASLEEP" }, cases: [ok("drivers", () => ({}))] },

  "admin.roads": { access: ADMIN, audit: false, bad: null, cases: [ok("road networks", () => undefined)] },
  "admin.users.list": { access: ADMIN, audit: false, bad: null, cases: [ok("users", () => undefined)] },
  "admin.users.create": {
    access: ADMIN,
    audit: "user",
    bad: { email: "not an email", name: "x", password: "long-enough-1", roles: ["ADMIN"] },
    cases: [ok("a dispatcher", () => ({ email: `new-${unique()}@fast.test`, name: "New", password: "long-enough-1", roles: ["DISPATCHER"] }))],
  },
  "admin.users.update": {
    access: ADMIN,
    audit: "user",
    bad: { userId: 0 },
    cases: [
      ok("renames another user", (fx) => ({ userId: fx.otherUserId, name: "Renamed" })),
      notFound("an unknown user", () => ({ userId: MISSING, name: "Nobody" })),
      { what: "their own administrator role", input: (_fx, me) => ({ userId: me.id, roles: ["DISPATCHER"] }), gives: { code: "UNPROCESSABLE_CONTENT", domainCode: "NOT_ACCEPTABLE" } },
    ],
  },
  "admin.users.setDisabled": {
    access: ADMIN,
    audit: "user",
    bad: { userId: 1, disabled: "yes" },
    cases: [
      ok("enables another user", (fx) => ({ userId: fx.otherUserId, disabled: false })),
      notFound("an unknown user", () => ({ userId: MISSING, disabled: false })),
      { what: "disabling themself", input: (_fx, me) => ({ userId: me.id, disabled: true }), gives: { code: "UNPROCESSABLE_CONTENT", domainCode: "NOT_ACCEPTABLE" } },
    ],
  },
  "admin.users.resetPassword": { access: ADMIN, audit: "user", bad: { userId: 1, password: "short" }, cases: [ok("another user's password", (fx) => ({ userId: fx.otherUserId, password: "a-new-password-1" })), notFound("an unknown user", () => ({ userId: MISSING, password: "a-new-password-1" }))] },
  "admin.apiKeys.list": { access: ADMIN, audit: false, bad: null, cases: [ok("keys", () => undefined)] },
  "admin.apiKeys.issue": { access: ADMIN, audit: "apiKey", bad: { name: "" }, cases: [ok("a key", () => ({ name: "fast tier" }))] },
  "admin.apiKeys.revoke": {
    access: ADMIN,
    audit: "apiKey",
    bad: { apiKeyId: -1 },
    cases: [ok("a key", async () => ({ apiKeyId: (await issueApiKey(db(), { name: "to revoke" })).id })), notFound("an unknown key", () => ({ apiKeyId: MISSING }))],
  },
  "admin.apiKeys.setCallback": {
    access: ADMIN,
    audit: "apiKey",
    bad: { apiKeyId: 1, callbackTemplate: 5 },
    cases: [ok("a callback template", (fx) => ({ apiKeyId: fx.apiKeyId, callbackTemplate: "https://example.test/cb?id=%uuid%" })), notFound("an unknown key", () => ({ apiKeyId: MISSING, callbackTemplate: null }))],
  },
  "admin.audit": { access: ADMIN, audit: false, bad: { limit: 5 }, cases: [ok("the audit log", () => ({}))] },

  "live.events": { access: "any operator", audit: false, bad: null, cases: [], why: "a subscription: its own test below (events filtered by role)" },

  "map.overview": { access: DISPATCHER, audit: false, bad: { cityId: "x" }, cases: [ok("the map", () => ({}))] },
  "map.counts": { access: DISPATCHER, audit: false, bad: {}, cases: [ok("region counts", (fx) => ({ cityId: fx.cityId }))] },
  "map.basemap": { access: ["DISPATCHER", "ADMIN"], audit: false, bad: { cityId: 0 }, cases: [ok("the base map", (fx) => ({ cityId: fx.cityId }))] },
  "map.driver": { access: DISPATCHER, audit: false, bad: { driverId: "x" }, cases: [ok("a driver's card", (fx) => ({ driverId: fx.driverId })), notFound("an unknown driver", () => ({ driverId: MISSING }))] },
  "map.route": { access: DISPATCHER, audit: false, bad: {}, cases: [ok("an order's route", (fx) => ({ orderId: fx.orderId }))] },

  "balances.totals": { access: ACCOUNTANT, audit: false, bad: null, cases: [ok("totals", () => undefined)] },
  "balances.drivers": { access: ACCOUNTANT, audit: false, bad: { limit: 1 }, cases: [ok("driver accounts", () => ({}))] },
  "balances.customers": { access: ACCOUNTANT, audit: false, bad: { negative: "yes" }, cases: [ok("customer accounts", () => ({}))] },
  "balances.driverLedger": { access: ACCOUNTANT, audit: false, bad: { id: 0 }, cases: [ok("a driver's ledger", (fx) => ({ id: fx.driverId }))] },
  "balances.customerLedger": { access: ACCOUNTANT, audit: false, bad: { id: 0 }, cases: [ok("a customer's ledger", (fx) => ({ id: fx.customerId }))] },
  "balances.adjust": {
    access: ACCOUNTANT,
    audit: "balance",
    bad: { account: "bank", id: 1, amount: 1, direction: "credit", reason: "x", txnId: "fast-0001" },
    cases: [
      ok("credits a driver", (fx) => ({ account: "driver", id: fx.driverId, amount: 100, direction: "credit", reason: "fast tier", txnId: `fast-${unique()}` })),
      notFound("an unknown driver", () => ({ account: "driver", id: MISSING, amount: 100, direction: "credit", reason: "fast tier", txnId: `fast-${unique()}` })),
    ],
  },

  "referenceAdmin.cities": { access: ADMIN, audit: false, bad: null, cases: [ok("cities", () => undefined)] },
  "referenceAdmin.tileUrl": { access: ADMIN, audit: false, bad: null, cases: [ok("the tile URL", () => undefined)] },
  "referenceAdmin.services": { access: ADMIN, audit: false, bad: null, cases: [ok("services", () => undefined)] },
  "referenceAdmin.saveService": {
    access: ADMIN,
    audit: "service",
    bad: { cityId: 1, name: "", nameEn: "x" },
    cases: [ok("a new service", (fx) => ({ cityId: fx.cityId, name: `Быстрая ${unique()}`, nameEn: `Fast ${unique()}` }))],
  },
  "referenceAdmin.regions": { access: ADMIN, audit: false, bad: { cityId: -2 }, cases: [ok("regions", () => ({}))] },
  "referenceAdmin.saveRegion": {
    access: ADMIN,
    audit: "region",
    bad: { cityId: 1, name: "x", nameEn: "x", polygon: [[0, 0]] },
    cases: [notFound("an unknown region", (fx) => ({ id: MISSING, cityId: fx.cityId, name: "Нет", nameEn: "None", polygon: [[55.7, 37.6], [55.71, 37.6], [55.71, 37.61]] }))],
  },
  "referenceAdmin.rates": { access: ADMIN, audit: false, bad: { serviceId: "x" }, cases: [ok("rates", () => ({}))] },
  "referenceAdmin.saveRate": {
    access: ADMIN,
    audit: "rate",
    bad: { serviceId: 1, name: "x" },
    cases: [
      {
        what: "one hour without the other",
        input: (fx) => ({ serviceId: fx.serviceId, name: "Ночной", pickUp: 100, minFare: 100, kmCost: 10, kmStart: 0, minuteCost: 0, standCost: 0, freeStandTime: 0, waitCost: 0, freeWaitTime: 0, roundTo: 100, startHour: 22, endHour: null }),
        gives: { code: "BAD_REQUEST", domainCode: "BAD_PARAMETER" },
      },
    ],
  },
  "referenceAdmin.extras": { access: ADMIN, audit: false, bad: { serviceId: 0 }, cases: [ok("extras", () => ({}))] },
  "referenceAdmin.saveExtra": {
    access: ADMIN,
    audit: "extra",
    bad: { serviceId: 1, code: "no spaces", name: "x", nameEn: "x", price: 0 },
    cases: [ok("a new extra", (fx) => ({ serviceId: fx.serviceId, code: `FAST_${unique()}`, name: "Быстро", nameEn: "Fast", price: 100 }))],
  },
  "referenceAdmin.streets": { access: ADMIN, audit: false, bad: { q: "" }, cases: [ok("street search", () => ({ q: "Лен" }))] },
  "referenceAdmin.street": { access: ADMIN, audit: false, bad: { id: "x" }, cases: [ok("a street", (fx) => ({ id: fx.streetId })), notFound("an unknown street", () => ({ id: MISSING }))] },
  "referenceAdmin.addStreet": {
    access: ADMIN,
    audit: "street",
    bad: { cityId: 1, kind: "ROAD", name: "x", lat: 0, lon: 0, houses: [] },
    cases: [ok("a street with a house", (fx) => ({ cityId: fx.cityId, kind: "STREET", prefix: "ул.", name: `Быстрая ${unique()}`, lat: 55.75, lon: 37.62, houses: [{ number: "1" }] }))],
  },
  "referenceAdmin.addHouses": { access: ADMIN, audit: "street", bad: { streetId: 1, houses: [] }, cases: [notFound("an unknown street", () => ({ streetId: MISSING, houses: [{ number: "1" }] }))] },
  "referenceAdmin.drivers": { access: ADMIN, audit: false, bad: { limit: 1 }, cases: [ok("drivers", () => ({}))] },
  "referenceAdmin.saveDriver": {
    access: ADMIN,
    audit: "driver",
    bad: { cityId: 1, callSign: "a b", firstName: "x", phone: "79001234567" },
    cases: [ok("a new driver", (fx) => ({ cityId: fx.cityId, callSign: `F-${unique()}`, firstName: "Фаст", phone: "+79001234567" }))],
  },
  "referenceAdmin.setDriverActive": { access: ADMIN, audit: "driver", bad: { driverId: 1, active: 1 }, cases: [notFound("an unknown driver", () => ({ driverId: MISSING, active: false }))] },
  "referenceAdmin.issueDriverKey": { access: ADMIN, audit: "driver", bad: { driverId: null }, cases: [ok("a driver app key", (fx) => ({ driverId: fx.driverId })), notFound("an unknown driver", () => ({ driverId: MISSING }))] },
  "referenceAdmin.blacklist": { access: ADMIN, audit: false, bad: { q: 5 }, cases: [ok("the blacklist", () => ({}))] },
  "referenceAdmin.blacklistAdd": { access: ADMIN, audit: "blacklist", bad: { phone: "1" }, cases: [ok("a phone", () => ({ phone: "+79005554433", reason: "fast tier" }))] },
  "referenceAdmin.blacklistRemove": { access: ADMIN, audit: "blacklist", bad: { phone: 1 }, cases: [notFound("a phone not listed", () => ({ phone: "+79009998877" }))] },

  "exchangeDesk.summary": { access: DESK, audit: false, bad: null, cases: [ok("the summary", () => undefined)] },
  "exchangeDesk.links": { access: DESK, audit: false, bad: { role: "LENT" }, cases: [ok("sold orders", () => ({ role: "SOLD" }))] },
  "exchangeDesk.outbox": { access: DESK, audit: false, bad: { status: "LOST" }, cases: [ok("messages", () => ({}))] },
  "exchangeDesk.message": { access: DESK, audit: false, bad: { id: -1 }, cases: [notFound("an unknown message", () => ({ id: MISSING }))] },
  "exchangeDesk.inbound": { access: DESK, audit: false, bad: { cursor: -1 }, cases: [ok("incoming notifications", () => ({}))] },
  "exchangeDesk.sellable": { access: DISPATCHER, audit: false, bad: { limit: 0 }, cases: [ok("orders to sell", () => ({}))] },
  "exchangeDesk.sell": {
    access: DISPATCHER,
    audit: "order",
    bad: { orderId: "x" },
    // No exchange is configured here (EXCHANGE_URL): selling is unavailable; the sale itself: tests/integration/exchange-participant.test.ts.
    cases: [{ what: "without an exchange configured", input: (fx) => ({ orderId: fx.orderId }), gives: { code: "FORBIDDEN", domainCode: "FORBIDDEN" } }],
  },
  "exchangeDesk.take": {
    access: DISPATCHER,
    audit: "order",
    bad: { exchangeOrderId: "", driverId: 1 },
    cases: [notFound("an offer never received", (fx) => ({ exchangeOrderId: String(MISSING), driverId: fx.driverId }))],
  },
  "exchangeDesk.retry": { access: OPERATOR, audit: "outboxMessage", bad: { id: "x" }, cases: [notFound("an unknown message", () => ({ id: MISSING }))] },

  "certificates.list": { access: OPERATOR, audit: false, bad: null, cases: [ok("certificates", () => undefined)] },
  "certificates.participants": { access: OPERATOR, audit: false, bad: null, cases: [ok("participants", () => undefined)] },
  "certificates.createRoot": {
    access: OPERATOR,
    audit: "certificate",
    bad: { commonName: "" },
    cases: [],
    why: "a root's RSA key takes seconds to make: tests/integration/certificates.test.ts and e2e/certificates.spec.ts create one",
  },
  "certificates.createIntermediate": {
    access: OPERATOR,
    audit: "certificate",
    bad: { commonName: "x", days: 0 },
    cases: [{ what: "before any root", input: () => ({ commonName: "Intermediate" }), gives: { code: "CONFLICT", domainCode: "CONFLICT" } }],
  },
  "certificates.issue": {
    access: OPERATOR,
    audit: "certificate",
    bad: { participantId: 1, userName: "x", password: "short" },
    cases: [notFound("an unknown participant", () => ({ participantId: MISSING, userName: "Оператор", password: "a-long-password-1" }))],
  },
  "certificates.revoke": { access: OPERATOR, audit: "certificate", bad: { serial: "" }, cases: [notFound("an unknown serial", () => ({ serial: "0abc" }))] },
};
