// The integrator's day as a test: a call centre's program of 40 calls made
// through a client generated from the document (openapi-typescript's types in
// tests/support/dispatch-api/schema.d.ts, kept current by
// tests/unit/openapi-lint.test.ts; openapi-fetch) — references, its own signed status
// callback, estimates, orders from tokens and from addresses, a driver's trip
// heard through the callback, completions refused for orders no driver
// carried, a cancellation, balances, and the errors it meets — with every
// reply (errors included) validated against the schema the served
// /api/openapi.json gives for that operation (ajv, JSON Schema 2020-12). Every
// call is typed by the generated schema: tsc checks its path, its parameters'
// names and types, the error codes it expects and the reply fields it reads.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import Ajv2020 from "ajv/dist/2020";
import createClient, { type Client as FetchClient, type ClientPathsWithMethod } from "openapi-fetch";
import type { components, paths } from "../support/dispatch-api/schema";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signInApi, trpc, uniquePhone } from "../../e2e/support/console-api";

const base = () => inject("baseUrl");
type Json = Record<string, unknown>;
/** An error code of the document's catalogue. */
type ErrorCode = components["schemas"]["Error"]["code"];
type Failed = { status: "ERROR"; error: { code: ErrorCode; message: string } };
/** What every reply of the document is: DONE with its fields, or ERROR with a code. */
type Reply = { status: "DONE" } | Failed;
/** A call of the generated client: the document's 200 reply as `data` (its 404 would be `error`). */
type Pending<T> = Promise<{ data?: T; response: Response }>;
type GetPath = ClientPathsWithMethod<FetchClient<paths>, "get">;
type PostPath = ClientPathsWithMethod<FetchClient<paths>, "post">;
/** T without the key (over each form of a oneOf). */
type Keyless<T> = T extends unknown ? Omit<T, "api_key"> : never;
/** The document's query parameters of a GET, less the key. */
type QueryOf<P extends GetPath> = paths[P]["get"] extends { parameters: { query?: infer Q } } ? Keyless<NonNullable<Q>> : never;
/** The document's form fields of a POST, less the key. */
type BodyOf<P extends PostPath> = paths[P]["post"] extends { requestBody?: { content: { "application/x-www-form-urlencoded": infer B } } } ? Keyless<B> : never;

function done<T extends Reply>(reply: T): reply is Extract<T, { status: "DONE" }> {
  return reply.status === "DONE";
}

function failed<T extends Reply>(reply: T): reply is T & Failed {
  return reply.status === "ERROR";
}

/**
 * The program's client: openapi-fetch typed by the generated `paths`, so the
 * program can only call the document's paths and methods, with the document's
 * parameter names and types (tsc checks every call below), and reads replies
 * of the document's shapes. Each reply is also checked against the served
 * document at run time.
 */
class Client {
  calls = 0;
  readonly api = createClient<paths>({
    baseUrl: base(),
    // the reference's form body (what its clients send)
    bodySerializer: (body: unknown) => new URLSearchParams(formFields(body)).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  private readonly ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  /** The request behind each reply, as the client sent it. */
  private readonly sent = new WeakMap<Response, { method: string; path: string }>();

  constructor(
    private readonly doc: Json,
    private readonly key: string,
  ) {
    this.ajv.addSchema({ ...doc, $id: "openapi" });
    this.api.use({
      onResponse: ({ request, response }) => {
        this.sent.set(response, { method: request.method.toLowerCase(), path: new URL(request.url).pathname });
      },
    });
  }

  /**
   * A GET's arguments for the generated client, its parameters named as the
   * document names them (an object literal here is checked by tsc, a name the
   * document lacks included, which openapi-fetch's own inferred init lets
   * through), with the key added.
   */
  get<P extends GetPath>(path: P, query: QueryOf<P>): [P, { params: { query: QueryOf<P> & { api_key: string } } }] {
    return [path, { params: { query: { ...query, api_key: this.key } } }];
  }

  /** A POST's arguments for the generated client: its form fields as the document names them, with the key. */
  post<P extends PostPath>(path: P, body: BodyOf<P>): [P, { body: BodyOf<P> & { api_key: string } }] {
    return [path, { body: { ...body, api_key: this.key } }];
  }

  async call<T extends Reply>(pending: Pending<T>): Promise<T> {
    const { data, response: res } = await pending;
    this.calls += 1;
    const sent = this.sent.get(res);
    expect(sent, "the request went through the generated client").toBeDefined();
    const { method, path } = sent!;
    const operation = (this.doc.paths as Record<string, Record<string, Json>>)[path]?.[method];
    expect(operation, `${method} ${path} is in the document`).toBeDefined();
    expect(res.status).toBe(200);
    expect(data, `${method} ${path} answered the document's 200 reply`).toBeDefined();
    const body = data!;
    const pointer = `openapi#/paths/${path.replaceAll("/", "~1")}/${method}/responses/200/content/application~1json/schema`;
    const validate = this.ajv.getSchema(pointer) ?? this.ajv.compile({ $ref: pointer });
    expect(validate(body), `${method} ${path}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(body).slice(0, 500)}`).toBe(true);
    if (failed(body)) {
      const codes = (operation!["x-error-codes"] as Array<{ code: string }>).map((e) => e.code);
      expect(codes, `${method} ${path} documents ${body.error.code}`).toContain(body.error.code);
    }
    return body;
  }

  async ok<T extends Reply>(pending: Pending<T>): Promise<Extract<T, { status: "DONE" }>> {
    const reply = await this.call(pending);
    if (!done(reply)) throw new Error(`expected DONE: ${JSON.stringify(reply)}`);
    return reply;
  }

  async refused<T extends Reply>(pending: Pending<T>, code: ErrorCode): Promise<void> {
    const reply = await this.call(pending);
    expect(failed(reply) ? reply.error.code : reply.status).toBe(code);
  }
}

/** A form body's fields: every parameter the call gave, as text. */
function formFields(body: unknown): Array<[string, string]> {
  if (typeof body !== "object" || body === null) return [];
  return Object.entries(body).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]]));
}

/** The call centre's CRM endpoint: verifies each callback's signature as docs/integrators.md tells. */
class Crm {
  readonly heard: Array<{ target: string; headers: IncomingHttpHeaders; verified: boolean }> = [];
  secret = "";
  url = "";
  private server?: Server;
  private waiters: Array<() => void> = [];

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const target = req.url ?? "";
      const header = String(req.headers["x-callback-signature"] ?? "");
      const fields = Object.fromEntries(header.split(",").map((part) => part.split("=") as [string, string]));
      const fresh = Math.abs(Date.now() / 1000 - Number(fields.t)) < 300;
      const expected = createHmac("sha256", this.secret).update(`${fields.t}.${target}`).digest();
      const given = Buffer.from(fields.v1 ?? "", "hex");
      this.heard.push({ target, headers: req.headers, verified: fresh && given.length === expected.length && timingSafeEqual(expected, given) });
      res.end();
      for (const wake of this.waiters.splice(0)) wake();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  }

  stop(): void {
    this.server?.close();
  }

  async status(uuid: string, code: number): Promise<{ verified: boolean }> {
    for (;;) {
      const found = this.heard.find((h) => h.target.includes(`uuid=${uuid}`) && h.target.includes(`status=${code}&`));
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

const crm = new Crm();
let client: Client;

beforeAll(async () => {
  await crm.start();
  const admin = await signInApi(base(), inject("adminEmail"), inject("adminPassword"));
  const issued = await trpc<{ key: string }>(base(), admin, "admin.apiKeys.issue", { name: `call centre ${Date.now()}` }, "mutation");
  const doc = (await (await fetch(`${base()}/api/openapi.json`)).json()) as Json;
  client = new Client(doc, issued.data!.key);
});

afterAll(() => crm.stop());

describe("an integrator's day", () => {
  it("makes its 40 calls, every reply as the document describes it", async () => {
    const c = client;
    const { GET, POST } = c.api;
    // References
    expect((await c.ok(GET("/api/version"))).response.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(Array.isArray((await c.ok(GET("/api/changeset"))).changeset)).toBe(true);
    const services = (await c.ok(GET(...c.get("/api/services", { city_id: 1 })))).response.services;
    const serviceId = services[0]!.id;
    await c.ok(GET(...c.get("/api/regions", { city_id: 1 })));
    await c.ok(GET(...c.get("/api/rates", { service_id: serviceId })));
    await c.ok(GET(...c.get("/api/extras", { service_id: serviceId })));
    expect((await c.ok(GET(...c.get("/api/streets", { pattern: "лен", city_id: "1" })))).response.streets).toContain("ул. Ленина");
    await c.ok(GET(...c.get("/api/drivers", { city_id: 1 })));
    await c.ok(GET(...c.get("/api/drivers", { code: "101" })));
    await c.ok(GET(...c.get("/api/region_by_address", { street: "ул. Ленина", house: "2" })));
    await c.ok(GET(...c.get("/api/region_by_coord", { lat: 55.75, lon: 37.62 })));
    // Its own status callback, signed
    const set = await c.ok(POST(...c.post("/api/callback", { url: `${crm.url}/crm/taxi?uuid=%uuid%&status=%status_code%&phone=%phonenum%` })));
    crm.secret = String(set.response.secret);
    expect((await c.ok(GET(...c.get("/api/callback", {})))).response.signed).toBe(true);
    expect((await c.ok(POST(...c.post("/api/callback/test", {})))).response).toMatchObject({ delivered: true, http_status: 200 });
    expect(crm.heard.at(-1)!.verified).toBe(true);
    // Estimates and orders
    const phone = uniquePhone();
    const now = (await c.ok(GET(...c.get("/api/order/pre_cost", { phone, way_points: JSON.stringify([{ street: "ул. Ленина", house: "2" }, { latitude: 55.8, longitude: 37.7 }]) })))).response;
    const later = (
      await c.ok(GET(...c.get("/api/order/pre_cost", { phone, src_street: "ул. Ленина", src_house: "2", dst_lat: 55.8, dst_lon: 37.7, pre_order_time_utc: "2030-01-15T10:00:00+03:00" })))
    ).response;
    const immediate = (await c.ok(POST(...c.post("/api/order", { token: String(now.token), moderation_required: "no" })))).response.uuid;
    const advance = (await c.ok(POST(...c.post("/api/order", { token: String(later.token), moderation_required: "no" })))).response.uuid;
    // Sent straight to a driver of the fleet (driver_id), who will carry the passenger.
    const byAddress = (await c.ok(POST(...c.post("/api/order", { phone, street: "ул. Ленина", house: "2", moderation_required: "no", driver_id: "101", comment: "у подъезда" })))).response.uuid;
    expect((await c.ok(GET(...c.get("/api/order", { uuid: advance })))).response.pre_order_time_iso).toBe("2030-01-15T10:00:00+03:00");
    expect((await c.ok(GET(...c.get("/api/order", { uuid: immediate })))).response.status).toBe(9);
    expect((await c.ok(GET(...c.get("/api/order/status", { uuid: byAddress })))).response.code).toBe(1);
    // Status moves of the driver's trip, each heard through the signed callback
    for (const code of [2, 4, 100]) {
      expect((await c.ok(POST(...c.post("/api/order/status", { uuid: byAddress, code })))).response.code).toBe(code);
      expect((await crm.status(byAddress, code)).verified).toBe(true);
    }
    expect((await c.ok(GET(...c.get("/api/order", { uuid: byAddress })))).response.status).toBe(100);
    // Completed needs an order a driver carried: not the advance order, not the free one.
    await c.refused(POST(...c.post("/api/order/status", { uuid: advance, code: 100 })), "FORBIDDEN_MOVE");
    await c.refused(POST(...c.post("/api/order/status", { uuid: immediate, code: 100 })), "FORBIDDEN_MOVE");
    // Cancellation
    await c.ok(POST(...c.post("/api/cancel_order", { uuid: immediate, reason: "клиент передумал" })));
    expect((await crm.status(immediate, 95)).verified).toBe(true);
    expect((await c.ok(GET(...c.get("/api/order/status", { uuid: immediate })))).response.code).toBe(95);
    await c.refused(POST(...c.post("/api/cancel_order", { uuid: immediate })), "FORBIDDEN_MOVE");
    // The errors it meets
    await c.refused(GET(...c.get("/api/order", { uuid: "not-a-uuid" })), "BAD_PARAMETER");
    await c.refused(POST(...c.post("/api/order", { phone, street: "ул. Ленина", house: "2", pre_order_time: "2030-02-30 10:00" })), "BAD_PARAMETER");
    await c.refused(GET(...c.get("/api/order/pre_cost", { src_street: "ул. Ленина", src_house: "2", pre_order_time_utc: "2030-01-15 24:00" })), "BAD_PARAMETER");
    // Bonuses and balances
    await c.ok(GET(...c.get("/api/client/bonus/count", { phone })));
    await c.ok(GET(...c.get("/api/driver/balance", { driver_code: "101" })));
    const txn = `day-${Date.now()}`;
    const paid = await c.ok(POST(...c.post("/api/driver/balance", { driver_code: "101", txn_id: txn, amount: 150.5 })));
    expect(await c.ok(POST(...c.post("/api/driver/balance", { driver_code: "101", txn_id: txn, amount: 150.5 })))).toEqual(paid);
    // The evening: the callback removed
    expect((await c.ok(POST(...c.post("/api/callback", { url: "" })))).response).toEqual({ url: null, secret: null });
    expect((await c.ok(GET(...c.get("/api/callback", {})))).response.url).toBeNull();
    expect(c.calls).toBe(40);
  });
});
