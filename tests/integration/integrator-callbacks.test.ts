// Callbacks an integrator owns, over HTTP against the started server: the
// key's own callback set (a secret shown once), read (never the secret),
// tested, received and verified, rotated and removed; an administrator's
// console sees the same and gives a new secret once.
//
// The receiver is written from the issue's description alone, as an
// integrator would (no code of the server's): X-Callback-Signature is
// "t=<unix seconds>,v1=<hex HMAC-SHA256 of '<t>.<request target>'>" with the
// key's secret, the request target being the path and query as sent.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signInApi, trpc, uniquePhone, type Session } from "../../e2e/support/console-api";

const base = () => inject("baseUrl");

interface Received {
  target: string;
  headers: IncomingHttpHeaders;
}

/** The integrator's receiver: records each request, answers 200. */
class Receiver {
  readonly received: Received[] = [];
  private waiters: Array<() => void> = [];
  private server?: Server;
  url = "";

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.received.push({ target: req.url ?? "", headers: req.headers });
      res.end("ok");
      for (const wake of this.waiters.splice(0)) wake();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  }

  stop(): void {
    this.server?.close();
  }

  async next(where: (r: Received) => boolean): Promise<Received> {
    for (;;) {
      const found = this.received.find(where);
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

/** The receiver's check: the signature names this target, with this secret, and is fresh (5 minutes). */
function verify(secret: string, received: Received, now = Date.now()): boolean {
  const header = received.headers["x-callback-signature"];
  if (typeof header !== "string") return false;
  const fields = Object.fromEntries(header.split(",").map((part) => part.split("=") as [string, string]));
  const t = Number(fields.t);
  if (!Number.isInteger(t) || Math.abs(now / 1000 - t) > 300 || !/^[0-9a-f]{64}$/.test(fields.v1 ?? "")) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${received.target}`).digest();
  return timingSafeEqual(expected, Buffer.from(fields.v1!, "hex"));
}

type Reply<T> = { status: "DONE"; response: T } | { status: "ERROR"; error: { code: string; message: string } };

async function call<T>(method: "GET" | "POST", path: string, key: string, params: Record<string, string> = {}): Promise<Reply<T>> {
  const search = new URLSearchParams({ api_key: key, ...params });
  const res =
    method === "GET"
      ? await fetch(`${base()}/api/${path}?${search}`)
      : await fetch(`${base()}/api/${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: search });
  expect(res.status).toBe(200);
  return (await res.json()) as Reply<T>;
}

function done<T>(reply: Reply<T>): T {
  if (reply.status !== "DONE") throw new Error(`${reply.error.code}: ${reply.error.message}`);
  return reply.response;
}

const receiver = new Receiver();
let admin: Session;
let key = "";
let otherKey = "";
let keyId = 0;

async function issueKey(name: string): Promise<{ id: number; key: string }> {
  const issued = await trpc<{ id: number; key: string }>(base(), admin, "admin.apiKeys.issue", { name }, "mutation");
  expect(issued.error).toBeUndefined();
  return issued.data!;
}

beforeAll(async () => {
  await receiver.start();
  admin = await signInApi(base(), inject("adminEmail"), inject("adminPassword"));
  ({ id: keyId, key } = await issueKey(`integrator ${Date.now()}`));
  ({ key: otherKey } = await issueKey(`another integrator ${Date.now()}`));
});

afterAll(() => receiver.stop());

describe("an integrator's own status callback", () => {
  let secret = "";
  const template = () => `${receiver.url}/taxi/status?uuid=%uuid%&code=%status_code%&phone=%phonenum%&note=%foo%`;

  it("starts with none", async () => {
    expect(done(await call<{ url: string | null }>("GET", "callback", key))).toEqual({ url: null, signed: false });
  });

  it("is set with a URL template, answering a secret once; reading it never shows the secret", async () => {
    const set = done(await call<{ url: string; secret: string }>("POST", "callback", key, { url: template() }));
    expect(set.url).toBe(template());
    expect(set.secret).toMatch(/^cbsec_[\w-]{40,}$/);
    secret = set.secret;
    const read = await call<{ url: string; signed: boolean }>("GET", "callback", key);
    expect(done(read)).toEqual({ url: template(), signed: true });
    expect(JSON.stringify(read)).not.toContain(secret);
    // another key sees its own (none)
    expect(done(await call<{ url: string | null }>("GET", "callback", otherKey)).url).toBeNull();
  });

  it("sends a signed test callback now, which the receiver verifies; a wrong secret or another target fails", async () => {
    const before = receiver.received.length;
    const test = done(await call<{ url: string; delivered: boolean; http_status: number }>("POST", "callback/test", key));
    expect(test).toMatchObject({ delivered: true, http_status: 200, error: null });
    const got = await receiver.next((r) => receiver.received.indexOf(r) >= before);
    expect(got.target).toBe("/taxi/status?uuid=00000000-0000-0000-0000-000000000000&code=0&phone=&note=%25foo%25");
    expect(test.url).toBe(`${receiver.url}${got.target}`);
    expect(verify(secret, got)).toBe(true);
    expect(verify(`${secret}x`, got)).toBe(false);
    expect(verify(secret, { ...got, target: got.target.replace("code=0", "code=100") })).toBe(false);
    expect(verify(secret, got, Date.now() + 10 * 60_000)).toBe(false); // a replay ten minutes later
  });

  it("signs every status callback of the key's orders", async () => {
    const phone = uniquePhone();
    const order = done(await call<{ uuid: string }>("POST", "order", key, { phone, street: "ул. Ленина", house: "2" }));
    const got = await receiver.next((r) => r.target.includes(order.uuid));
    expect(got.target).toContain("code=80");
    expect(got.headers["x-delivery-id"]).toBeTruthy();
    expect(verify(secret, got)).toBe(true);
    done(await call("POST", "cancel_order", key, { uuid: order.uuid }));
    const cancelled = await receiver.next((r) => r.target.includes(order.uuid) && r.target.includes("code=95"));
    expect(verify(secret, cancelled)).toBe(true);
  });

  it("rotates the secret when set again: the old one no longer verifies", async () => {
    const rotated = done(await call<{ secret: string }>("POST", "callback", key, { url: template() }));
    expect(rotated.secret).not.toBe(secret);
    const before = receiver.received.length;
    done(await call("POST", "callback/test", key));
    const got = await receiver.next((r) => receiver.received.indexOf(r) >= before);
    expect(verify(rotated.secret, got)).toBe(true);
    expect(verify(secret, got)).toBe(false);
    secret = rotated.secret;
  });

  it("refuses what is not an http(s) URL, keeping the one in force", async () => {
    for (const url of ["ftp://example.com/x", "not a url", "javascript:alert(1)"]) {
      const reply = await call("POST", "callback", key, { url });
      expect(reply.status).toBe("ERROR");
      expect(reply.status === "ERROR" && reply.error.code).toBe("BAD_PARAMETER");
    }
    expect(done(await call<{ url: string }>("GET", "callback", key)).url).toBe(template());
  });

  it("applies the outgoing address policy to the test callback as to every other", async () => {
    const blocked = "http://169.254.169.254/latest/meta-data?uuid=%uuid%";
    done(await call("POST", "callback", otherKey, { url: blocked }));
    const test = done(await call<{ delivered: boolean; http_status: number | null; error: string | null }>("POST", "callback/test", otherKey));
    expect(test.delivered).toBe(false);
    expect(test.http_status).toBeNull();
    expect(test.error).toBeTruthy();
  });

  it("is shown to an administrator in the console (never the secret), who can give it a new secret, shown once", async () => {
    const list = await trpc<Array<{ id: number; callbackTemplate: string | null }>>(base(), admin, "admin.apiKeys.list", undefined);
    expect(list.data!.find((k) => k.id === keyId)?.callbackTemplate).toBe(template());
    expect(JSON.stringify(list.data)).not.toContain(secret);
    const kept = await trpc<{ callbackSecret: string | null }>(base(), admin, "admin.apiKeys.setCallback", { apiKeyId: keyId, callbackTemplate: template() }, "mutation");
    expect(kept.data!.callbackSecret).toBeNull(); // the integrator's secret stays
    const renewed = await trpc<{ callbackSecret: string | null }>(base(), admin, "admin.apiKeys.setCallback", { apiKeyId: keyId, callbackTemplate: template(), rotateSecret: true }, "mutation");
    expect(renewed.data!.callbackSecret).toMatch(/^cbsec_/);
    const before = receiver.received.length;
    done(await call("POST", "callback/test", key));
    expect(verify(renewed.data!.callbackSecret!, await receiver.next((r) => receiver.received.indexOf(r) >= before))).toBe(true);
  });

  it("is removed with an empty url; then there is nothing to test", async () => {
    expect(done(await call("POST", "callback", key, { url: "" }))).toEqual({ url: null, secret: null });
    expect(done(await call("GET", "callback", key))).toEqual({ url: null, signed: false });
    const test = await call("POST", "callback/test", key);
    expect(test.status === "ERROR" && test.error.code).toBe("MISSING_PARAMETER");
  });
});
