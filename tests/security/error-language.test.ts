// Errors wholly in one language, over the real path: one server with
// LANGUAGE=ru and one with LANGUAGE=en, each asked for the errors of the
// dispatch API and the driver app interface (the interfaces that speak the
// configured language), and of the exchange and participant endpoints (which
// speak English whatever LANGUAGE is: no Cyrillic there, on either server).
// Every message is held to tests/support/language.ts's rule; the catalogue
// walk of tests/unit/error-language.test.ts covers every code and reason.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueApiKey } from "@/server/auth/api-keys";
import { provisioningKeyFor } from "@/server/driver-app/keys";
import { mixedWords } from "../support/language";
import type { TestDatabase } from "../reliability/support/db";
import { dispatchClient } from "../reliability/support/dispatch";
import { closeAgents, send } from "../reliability/support/http";
import { freshDatabase, startInstance, template, type AppInstance } from "../reliability/support/instance";

const LANGUAGES = ["ru", "en"] as const;
const SECOND_KEY = `lang-second-${randomUUID()}`;
type Language = (typeof LANGUAGES)[number];

const servers = new Map<Language, { app: AppInstance; database: TestDatabase }>();

beforeAll(async () => {
  for (const language of LANGUAGES) {
    const database = await freshDatabase();
    // A second integration key: a price token used by one key answers TOKEN_USED to another (its own key gets its order).
    await database.use(async (prisma) => {
      await issueApiKey(prisma, { name: "second client", key: SECOND_KEY });
    });
    const app = await startInstance(database, { env: { LANGUAGE: language } });
    servers.set(language, { app, database });
  }
}, 300_000);

afterAll(async () => {
  closeAgents();
  for (const { app, database } of servers.values()) {
    await app.stop();
    await database.drop();
  }
});

interface Provoked {
  what: string;
  code: string;
  message: string;
}

/** Provokes the dispatch API's and the driver app's errors on one server. */
async function provoke(base: string): Promise<Provoked[]> {
  const out: Provoked[] = [];
  const api = dispatchClient(base, template().apiKey);
  const noKey = dispatchClient(base, "");
  const badKey = dispatchClient(base, "tk_forged");
  const record = (what: string, reply: { error?: { code: string; message: string } }) => {
    expect(reply.error, what).toBeDefined();
    out.push({ what, code: reply.error!.code, message: reply.error!.message });
  };
  // The dispatch API.
  record("no key", await noKey.get("services"));
  record("forged key", await badKey.get("services"));
  record("missing uuid", await api.get("order", {}));
  record("bad uuid", await api.get("order", { uuid: "not-a-uuid" }));
  record("unknown order", await api.get("order", { uuid: randomUUID() }));
  record("unknown path", await api.get("no/such/operation"));
  record("bad phone", await api.post("order", { phone: "12", street: "ул. Ленина", house: "2" }));
  record("unknown street", await api.post("order", { phone: "89160001122", street: "ул. Несуществующая-Никакая", house: "1" }));
  record("bad token", await api.post("order", { token: "forged.token" }));
  record("bad way_points", await api.get("order/pre_cost", { way_points: "[{" }));
  record("bad extras", await api.get("order/pre_cost", { way_points: JSON.stringify([{ street: "ул. Ленина", house: "2" }]), extras: "99999" }));
  record("unknown driver", await api.get("driver/balance", { driver_code: "no-such-driver" }));
  record("unknown customer", await api.get("customer/balance", { customer_id: 999999 }));
  const drivers = await api.get<{ drivers: Array<{ code: string }> }>("drivers");
  const driverCode = drivers.response.drivers[7]!.code;
  const txn = `lang-${randomUUID()}`;
  await api.post("driver/balance", { driver_code: driverCode, txn_id: txn, amount: 1 });
  record("txn_id reused", await api.post("driver/balance", { driver_code: driverCode, txn_id: txn, amount: 2 }));
  const order = await api.post<{ uuid: string }>("order", { phone: "89160001133", street: "ул. Ленина", house: "2", moderation_required: "no", need_notify: "no" });
  await api.post("cancel_order", { uuid: order.response.uuid });
  record("forbidden move", await api.post("order/status", { uuid: order.response.uuid, code: 4 }));
  const estimate = await api.get<{ token: string }>("order/pre_cost", { phone: "89160001144", way_points: JSON.stringify([{ street: "ул. Ленина", house: "2" }, { lat: 55.8, lon: 37.7 }]) });
  await api.post("order", { token: estimate.response.token, moderation_required: "no" });
  record("token used", await dispatchClient(base, SECOND_KEY).post("order", { token: estimate.response.token, moderation_required: "no" }));
  const wrongMethod = await send(base, { method: "DELETE", path: `/api/services?api_key=${template().apiKey}`, timeoutMs: 30_000 });
  record("wrong method", JSON.parse(wrongMethod.text) as { error?: { code: string; message: string } });

  // The driver app.
  const app = async (what: string, method: "GET" | "POST", path: string, key: string | undefined, body?: unknown) => {
    const r = await send(base, {
      method,
      path: `/driver-app/v1/${path}`,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: 30_000,
    });
    const parsed = JSON.parse(r.text) as { error?: { code: string; message: string } };
    record(`driver app: ${what}`, parsed);
  };
  await app("no key", "GET", "me", undefined);
  await app("forged key", "GET", "me", "da_forged");
  await app("no provisioning key", "POST", "keys", undefined, { call_sign: driverCode });
  await app("unknown call sign", "POST", "keys", provisioningKeyFor(template().appSecret), { call_sign: "no-such-driver" });
  const issued = await send(base, {
    method: "POST",
    path: "/driver-app/v1/keys",
    headers: { authorization: `Bearer ${provisioningKeyFor(template().appSecret)}`, "content-type": "application/json" },
    body: JSON.stringify({ call_sign: driverCode }),
    timeoutMs: 30_000,
  });
  const key = String((JSON.parse(issued.text) as { app_key: string }).app_key);
  await send(base, { method: "POST", path: "/driver-app/v1/shift/end", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: "{}", timeoutMs: 30_000 });
  await app("offers off shift", "GET", "offers", key);
  await app("status of another's order", "POST", "orders/status", key, { uuid: order.response.uuid, status: "CONFIRMED" });
  await app("complete an unknown order", "POST", "orders/complete", key, { uuid: randomUUID() });
  await app("bad body", "POST", "position", key, { lat: "north" });
  await app("unknown operation", "GET", "no/such", key);
  return out;
}

describe("error messages over HTTP", () => {
  for (const language of LANGUAGES) {
    it(`are wholly ${language === "ru" ? "Russian" : "English"} with LANGUAGE=${language} (dispatch API, driver app)`, async () => {
      const provoked = await provoke(servers.get(language)!.app.url);
      const codes = new Set(provoked.map((p) => p.code));
      // The walk reached the codes that carried fragments before (NOT_FOUND's objects, CONFLICT's reasons).
      for (const code of ["NOT_FOUND", "CONFLICT", "BAD_PARAMETER", "UNAUTHORIZED", "FORBIDDEN_MOVE", "TOKEN_USED", "MISSING_API_KEY"]) expect(codes, code).toContain(code);
      const mixed = provoked.flatMap((p) => {
        const bad = mixedWords(p.message, language, ["ул. Несуществующая-Никакая", "Несуществующая-Никакая", "no-such-driver", "way_points", "extras", "phone", "street", "uuid", "status", "lat"]);
        return bad.length ? [`${p.what} (${p.code}): ${p.message}  [${bad.join(", ")}]`] : [];
      });
      expect(mixed).toEqual([]);
    });

    it(`leaves the exchange's protocol in English with LANGUAGE=${language}`, async () => {
      const base = servers.get(language)!.app.url;
      // Refusals only (the participant endpoints trust this loopback address: the demo's exchange lives there).
      for (const path of ["/exchange/order/take", "/exchange/no-such", "/exchange/session", "/participant/no-such"]) {
        const r = await send(base, { method: "POST", path, headers: { "content-type": "application/json" }, body: "{}", timeoutMs: 30_000 });
        expect(r.status, path).toBeGreaterThanOrEqual(400);
        expect(r.text, path).not.toMatch(/[А-Яа-яЁё]/);
      }
    });
  }
});
