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
/** Reading the board: managers read it too, and change nothing. */
const BOARD = ["DISPATCHER", "MANAGER"] as const;
/** The reports (docs/reports.md). */
const REPORTS = ["MANAGER", "ADMIN", "ACCOUNTANT"] as const;

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
  "session.signOutEverywhere": { access: "any operator", audit: "user", bad: null, cases: [], why: "it ends the caller's own sessions: tests/security/sessions.test.ts, over HTTP with real cookies" },

  "orders.board": { access: BOARD, audit: false, bad: { filter: {}, limit: 5 }, cases: [ok("the board", () => ({ filter: {} }))] },
  "orders.boardRows": { access: BOARD, audit: false, bad: { filter: {}, ids: "1" }, cases: [ok("rows by id", (fx) => ({ filter: {}, ids: [fx.orderId] }))] },
  "orders.moderation": { access: BOARD, audit: false, bad: null, cases: [ok("the moderation queue", () => undefined)] },
  "orders.counts": { access: BOARD, audit: false, bad: null, cases: [ok("counts", () => undefined)] },
  "orders.get": {
    access: BOARD,
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
      notFound("an unknown order", () => ({ orderId: MISSING, to: "DONE_CANCELLED", expectedVersion: 0, reason: "fast tier" })),
      {
        what: "a move the state machine forbids (a cancelled order back to free)",
        input: async () => {
          const order = await freshOrder();
          const moved = await moveOrder(db(), { orderId: order.id, to: "DONE_CANCELLED", actor: { type: "SYSTEM", id: "fast-tier" } });
          return { orderId: order.id, to: "FREE", expectedVersion: moved.version };
        },
        gives: { code: "UNPROCESSABLE_CONTENT", domainCode: "FORBIDDEN_MOVE" },
      },
      {
        what: "a final move without a reason: refused, nothing changed (issue 34)",
        input: async () => {
          const order = await freshOrder();
          return { orderId: order.id, to: "DONE_OPERATOR_REJECTED", expectedVersion: order.version, reason: "  " };
        },
        gives: { code: "BAD_REQUEST", domainCode: "BAD_PARAMETER" },
      },
      {
        what: "completed for an order no driver holds (on a trip through the API): refused by the state machine (issue 34)",
        input: async () => {
          const order = await freshOrder();
          let version = order.version;
          for (const to of ["SENT_TO_DRIVER", "CONFIRMED", "IN_PROCESS"] as const) version = (await moveOrder(db(), { orderId: order.id, to, actor: { type: "SYSTEM", id: "fast-tier" } })).version;
          return { orderId: order.id, to: "DONE_SUCCESSFUL", expectedVersion: version, reason: "the trip is over" };
        },
        gives: { code: "UNPROCESSABLE_CONTENT", domainCode: "FORBIDDEN_MOVE" },
      },
    ],
  },
  "orders.approve": { access: DISPATCHER, audit: "order", bad: { orderId: "x", expectedVersion: 0 }, cases: [notFound("an unknown order", () => ({ orderId: MISSING, expectedVersion: 0 }))] },
  "orders.duplicates": { access: DISPATCHER, audit: false, bad: { phone: "1", street: "" }, cases: [ok("the phone's active orders near the pickup", () => ({ phone: "89161112233", street: "ул. Ленина", house: "2" }))] },
  "orders.attention": { access: BOARD, audit: false, bad: null, cases: [ok("the orders that need a person", () => undefined)] },
  "orders.ageLimits": { access: ["DISPATCHER", "ADMIN", "MANAGER"], audit: false, bad: null, cases: [ok("the age limits", () => undefined)] },
  "orders.saveAgeLimit": {
    access: ADMIN,
    audit: "orderAgeLimit",
    bad: { kind: "NAP", amberSeconds: 1, redSeconds: 2 },
    cases: [
      ok("sets a kind's limits", () => ({ kind: "FREE", amberSeconds: 180, redSeconds: 420 })),
      { what: "red before amber: refused", input: () => ({ kind: "FREE", amberSeconds: 400, redSeconds: 300 }), gives: { code: "BAD_REQUEST", domainCode: "BAD_PARAMETER" } },
    ],
  },
  "orders.giveToDriver": {
    access: DISPATCHER,
    audit: "order",
    bad: { orderId: 1, expectedVersion: 0, callSign: "" },
    cases: [
      notFound("an unknown order", () => ({ orderId: MISSING, expectedVersion: 0, callSign: "1" })),
      {
        what: "an unknown call sign: refused with the reason",
        input: async () => {
          const order = await freshOrder();
          return { orderId: order.id, expectedVersion: order.version, callSign: `no-${unique()}` };
        },
        gives: { code: "UNPROCESSABLE_CONTENT", domainCode: "NOT_ACCEPTABLE" },
      },
    ],
  },
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

  "dispatch.settings": { access: ["ADMIN", "DISPATCHER", "MANAGER"], audit: false, bad: null, cases: [ok("the distribution rules", () => undefined)] },
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
  "dispatch.order": { access: BOARD, audit: false, bad: { orderId: "x" }, cases: [ok("the order's offers and control", (fx) => ({ orderId: fx.orderId }))] },
  "dispatch.candidates": { access: BOARD, audit: false, bad: { orderId: 0 }, cases: [ok("drivers with arrival times", (fx) => ({ orderId: fx.orderId }))] },
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
  "dispatch.queues": { access: BOARD, audit: false, bad: { cityId: "x" }, cases: [ok("parking queues", () => ({}))] },
  "dispatch.queuePut": {
    access: DISPATCHER,
    audit: "dispatchQueue",
    bad: { regionId: 1 },
    cases: [notFound("an unknown call sign", () => ({ callSign: `no-${unique()}`, regionId: 1 })), notFound("an unknown driver", () => ({ driverId: MISSING, regionId: 1 }))],
  },
  "dispatch.queueRemove": { access: DISPATCHER, audit: "dispatchQueue", bad: { driverId: 0 }, cases: [ok("takes a driver off the stands", (fx) => ({ driverId: fx.driverId }))] },
  "dispatch.trouble": { access: BOARD, audit: false, bad: null, cases: [ok("orders in trouble", () => undefined)] },
  "shift.fleet": { access: BOARD, audit: false, bad: { cityId: -1 }, cases: [ok("fleet counters", () => ({}))] },
  "shift.alarm": { access: BOARD, audit: false, bad: null, cases: [ok("the operator's alarm sound", () => undefined)] },
  "shift.saveAlarm": {
    access: DISPATCHER,
    audit: "userAlarmSetting",
    bad: { volume: 101 },
    cases: [ok("saves the volume", () => ({ volume: 40 })), ok("switches the sound off", () => ({ soundOn: false }))],
  },

  "phone.status": { access: BOARD, audit: false, bad: null, cases: [ok("whether Call dials through the PBX", () => undefined)] },
  "phone.calls": { access: DISPATCHER, audit: false, bad: null, cases: [ok("ringing and missed calls", () => undefined)] },
  "phone.caller": { access: DISPATCHER, audit: false, bad: { phone: "" }, cases: [ok("the caller's card", () => ({ phone: "+79161234567" }))] },
  "phone.log": { access: BOARD, audit: false, bad: { orderId: -1 }, cases: [ok("an order's calls", (fx) => ({ orderId: fx.orderId })), ok("a phone's calls", () => ({ phone: "+79161234567" }))] },
  "clients.card": {
    access: DISPATCHER,
    audit: false,
    bad: { phone: "" },
    cases: [ok("a known client's card", () => ({ phone: "+79161234567" })), ok("a number that is no phone: said so, nothing found", () => ({ phone: "not a phone" }))],
  },
  "phone.dismiss": { access: DISPATCHER, audit: "phoneCall", bad: { callId: 0 }, cases: [notFound("an unknown call", () => ({ callId: 2_000_000_000 }))] },
  "phone.dial": {
    access: DISPATCHER,
    audit: "phoneCall",
    bad: { phone: "" },
    // With a PBX: tests/integration/pbx.test.ts (Originate's fields).
    cases: [{ what: "no PBX set up", input: () => ({ phone: "+79161234567" }), gives: { code: "UNPROCESSABLE_CONTENT", domainCode: "NOT_ACCEPTABLE" } }],
  },

  "reference.lookups": { access: "any operator", audit: false, bad: null, cases: [ok("cities, services, regions", () => undefined)] },
  "reference.streets": { access: DISPATCHER, audit: false, bad: { q: "" }, cases: [ok("street search", () => ({ q: "Лен" }))] },
  "reference.assignableDrivers": { access: DISPATCHER, audit: false, bad: { serviceId: -1 }, cases: [ok("drivers", () => ({}))] },
  "drivers.list": { access: BOARD, audit: false, bad: { state: "ASLEEP" }, cases: [ok("drivers", () => ({}))] },

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

  "map.overview": { access: BOARD, audit: false, bad: { cityId: "x" }, cases: [ok("the map", () => ({}))] },
  "map.counts": { access: BOARD, audit: false, bad: {}, cases: [ok("region counts", (fx) => ({ cityId: fx.cityId }))] },
  "map.basemap": { access: ["DISPATCHER", "ADMIN", "MANAGER"], audit: false, bad: { cityId: 0 }, cases: [ok("the base map", (fx) => ({ cityId: fx.cityId }))] },
  "map.driver": { access: BOARD, audit: false, bad: { driverId: "x" }, cases: [ok("a driver's card", (fx) => ({ driverId: fx.driverId })), notFound("an unknown driver", () => ({ driverId: MISSING }))] },
  "map.route": { access: BOARD, audit: false, bad: {}, cases: [ok("an order's route", (fx) => ({ orderId: fx.orderId }))] },
  "ratings.driver": { access: DISPATCHER, audit: false, bad: { driverId: "x" }, cases: [ok("a driver's rating", (fx) => ({ driverId: fx.driverId }))] },

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

  // The reports (docs/reports.md): managers, administrators, accountants read; the shift start is the administrator's.
  "reports.orders": {
    access: REPORTS,
    audit: false,
    bad: { period: "fortnight" },
    cases: [
      ok("the shift's orders", () => ({ period: "shift" })),
      { what: "a period over a year", input: () => ({ period: "range", from: "2025-01-01", to: "2026-06-01" }), gives: { code: "BAD_REQUEST", domainCode: "BAD_PARAMETER" } },
      { what: "a malformed date", input: () => ({ period: "day", date: "2026-02-30" }), gives: { code: "BAD_REQUEST", domainCode: "BAD_PARAMETER" } },
    ],
  },
  "reports.waits": { access: REPORTS, audit: false, bad: { period: "shift", colour: "red" }, cases: [ok("the week's waits", () => ({ period: "week" }))] },
  "reports.money": { access: REPORTS, audit: false, bad: { period: "shift", cityId: "x" }, cases: [ok("the month's money", () => ({ period: "month" })), notFound("an unknown city", () => ({ period: "shift", cityId: MISSING }))] },
  "reports.drivers": { access: REPORTS, audit: false, bad: { period: "day", driverId: -1 }, cases: [ok("the day's drivers", () => ({ period: "day" }))] },
  "reports.dispatch": { access: REPORTS, audit: false, bad: {}, cases: [ok("a range's dispatch", () => ({ period: "range", from: "2026-11-01", to: "2026-11-25" }))] },
  "reports.choices": { access: REPORTS, audit: false, bad: null, cases: [ok("the filters' choices", () => undefined)] },
  "reports.setShiftStart": { access: ADMIN, audit: "setting", bad: { hour: 24 }, cases: [ok("the shift starts at eight", () => ({ hour: 8 }))] },
  "sms.templates": { access: ADMIN, audit: false, bad: { serviceId: "x" }, cases: [ok("a service's texts and settings", (fx) => ({ serviceId: fx.serviceId })), notFound("an unknown service", () => ({ serviceId: MISSING }))] },
  "sms.saveTemplate": {
    access: ADMIN,
    audit: "smsTemplate",
    bad: { serviceId: 1, language: "de", event: "ASSIGNED", text: "x" },
    cases: [
      ok("a service's own text", (fx) => ({ serviceId: fx.serviceId, language: "en", event: "FARE", text: "Fare %fare% RUB" })),
      ok("back to the built-in text", (fx) => ({ serviceId: fx.serviceId, language: "en", event: "FARE", text: null })),
      { what: "an unknown placeholder: refused", input: (fx) => ({ serviceId: fx.serviceId, language: "en", event: "FARE", text: "%secret%" }), gives: { code: "BAD_REQUEST", domainCode: "BAD_PARAMETER" } },
    ],
  },
  "sms.saveSettings": {
    access: ADMIN,
    audit: "smsServiceSetting",
    bad: { serviceId: 1, language: "ru", sender: "", patienceMinutes: -1 },
    cases: [ok("the service's language, sender and patience", (fx) => ({ serviceId: fx.serviceId, language: "ru", sender: "", patienceMinutes: 0 })), notFound("an unknown service", () => ({ serviceId: MISSING, language: "ru", sender: "", patienceMinutes: 0 }))],
  },
  "sms.order": { access: ["DISPATCHER", "ADMIN"], audit: false, bad: { orderId: "x" }, cases: [ok("the order's messages", (fx) => ({ orderId: fx.orderId }))] },
  // The taximeter and the messages between dispatch and drivers (tests/integration/driver-meter.test.ts over HTTP).
  "meter.order": { access: DISPATCHER, audit: false, bad: { orderId: "x" }, cases: [ok("a fixed-price order has no meter", (fx) => ({ orderId: fx.orderId }))] },
  "messages.unread": { access: DISPATCHER, audit: false, bad: null, cases: [ok("the unread answers", () => undefined)] },
  "messages.recent": { access: DISPATCHER, audit: false, bad: { limit: 0 }, cases: [ok("every thread", () => ({})), ok("one driver's", (fx) => ({ driverId: fx.driverId }))] },
  "messages.send": {
    access: DISPATCHER,
    audit: "driverMessage",
    bad: { to: { driverId: 1 }, text: "" },
    cases: [ok("to one driver", (fx) => ({ to: { driverId: fx.driverId }, text: "Проверка связи" })), notFound("an unknown driver", () => ({ to: { driverId: MISSING }, text: "x" }))],
  },
  "messages.markRead": { access: DISPATCHER, audit: "driverMessage", bad: { driverId: 0 }, cases: [ok("a driver's answers", (fx) => ({ driverId: fx.driverId }))] },
};
