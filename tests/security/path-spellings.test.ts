// Every spelling of a protected path, on both listeners, from an address the
// server must not trust, with forged forwarding headers: always refused.
//
// The server trusts the exchange's address (127.0.0.1, EXCHANGE_URL's host)
// on its participant endpoints, so a request from 127.0.0.1 itself is the
// positive control: it must be served, under the canonical spelling and
// under the others too (they name the same resource), which proves the walk
// can tell an accepted request from a refused one. From 127.0.0.2, claiming
// 127.0.0.1 in X-Forwarded-For / X-Real-IP / Forwarded, every spelling must
// be refused: no route (Next's or ours) may take the address from a header.
// The panel's listener serves static files without a certificate and
// nothing else under any spelling.
import https from "node:https";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DB } from "../reliability/support/db";
import { FakeExchange } from "../support/exchange/fake-exchange";
import type { TestDatabase } from "../reliability/support/db";
import { freshDatabase, template } from "../reliability/support/instance";
import { startTlsServer, type TlsServer } from "../support/tls-server";

let database: TestDatabase;
let server: TlsServer;
let fake: FakeExchange;

interface Reply {
  status: number;
  headers: Record<string, unknown>;
  text: string;
}

const FORGED = { "x-forwarded-for": "127.0.0.1", "x-real-ip": "127.0.0.1", forwarded: "for=127.0.0.1", "x-client-ip": "127.0.0.1" };

/** A raw request: the path goes on the request line exactly as given (like curl --path-as-is). */
function send(base: string, method: string, path: string, options: { from: string; headers?: Record<string, string>; body?: string }): Promise<Reply> {
  const u = new URL(base);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: u.hostname,
        port: u.port,
        path,
        method,
        localAddress: options.from,
        rejectUnauthorized: false,
        agent: false,
        timeout: 30_000,
        headers: { ...(options.headers ?? {}), ...(body ? { "content-type": "application/json", "content-length": String(body.length) } : {}) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error(`no reply: ${method} ${path}`)));
    req.end(body);
  });
}

/** A refusal: the protocol's 401, a 400 or 404, or (for a path that is Next's) its redirect to sign-in. */
function refused(r: Reply): boolean {
  if ([400, 401, 404].includes(r.status)) return true;
  return r.status >= 300 && r.status < 400 && /^\/signin/.test(String(r.headers.location ?? ""));
}

/** Ways to write `/<first>/<rest>` that name the same resource, or one a router might confuse with it. */
function spellings(first: string, rest: string): string[] {
  const encodedFirst = [...first].map((c, i) => (i === 0 ? `%${c.charCodeAt(0).toString(16)}` : c)).join("");
  const tail = rest ? `/${rest}` : "";
  return [
    `/${first}${tail}`,
    `/x/../${first}${tail}`,
    `/x/%2e%2e/${first}${tail}`,
    `/x/%2E%2E/${first}${tail}`,
    `/x/.%2e/${first}${tail}`,
    `/./${first}${tail}`,
    `/x%2f..%2f${first}${tail}`,
    `/x%2F..%2F${first}${tail}`,
    `/x\\..\\${first}${tail}`,
    `//${first}//${rest}`,
    `/${first}%2f${rest}`,
    `/${encodedFirst}${tail}`,
    `/${first.toUpperCase()}${tail}`,
    `/${first[0]!.toUpperCase()}${first.slice(1)}${tail}`,
    `/${first}${tail}/`,
    `/${first}${tail}/.`,
    `/${first}${tail}.`,
    `/_next/../${first}${tail}`,
    `/_next/static/../../${first}${tail}`,
    `/_next/static/%2e%2e/%2e%2e/${first}${tail}`,
    `/panel/../${first}${tail}`,
    `/api/../${first}${tail}`,
    `/signin/..%2f${first}${tail}`,
    `/a/b/c/../../../${first}${tail}`,
    `http://127.0.0.1/${first}${tail}`,
  ];
}

beforeAll(async () => {
  fake = await new FakeExchange().start();
  database = await freshDatabase();
  server = await startTlsServer({
    appSecret: template().appSecret,
    env: { ...database.env, SIMULATE: "0", SEED_DEMO: "0", EXCHANGE_URL: fake.url, EXCHANGE_CLIENT_KEY: "xk_path-spellings-key", NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next" },
  });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await fake?.stop();
  await database?.drop();
});

// On PostgreSQL only: the routing decision is made on the path before any statement, the same code on either database; one run proves it, on the PostgreSQL lane because the PGlite lane is the longer one (issue 35).
describe.skipIf(TEST_DB !== "postgres")("one routing decision on the canonical path, on both listeners", () => {
  it("participant endpoints: served to the exchange's address under every spelling, refused to anyone else under every spelling, whatever the headers say", async () => {
    const refusedWith: string[] = [];
    for (const path of spellings("participant", "drivers")) {
      // Trailing dots ("drivers.") and encoded slashes (inside one segment, as URL parsers read
      // them) name other resources: not served, and not a way in.
      const sameResource = !path.endsWith(".") && !/%2f/i.test(path);
      const trusted = await send(server.url, "POST", path, { from: "127.0.0.1", body: "{}" });
      if (sameResource) expect(trusted.status, `trusted ${path}: ${trusted.text.slice(0, 200)}`).toBe(200);
      if (sameResource) expect(JSON.parse(trusted.text), path).toHaveProperty("data.drivers");
      const forged = await send(server.url, "POST", path, { from: "127.0.0.2", headers: FORGED, body: "{}" });
      expect(refused(forged), `forged ${path}: ${forged.status} ${forged.text.slice(0, 200)}`).toBe(true);
      expect(forged.text, path).not.toContain('"drivers"');
      refusedWith.push(`${forged.status}`);
    }
    // Not all refusals are a 404 for a path nobody serves: the protocol's own 401 answers most.
    expect(refusedWith.filter((s) => s === "401").length).toBeGreaterThan(10);
  });

  it("events from the exchange: no spelling lets another address inject one", async () => {
    for (const path of spellings("participant", "on/order/cancelled")) {
      const r = await send(server.url, "POST", path, { from: "127.0.0.3", headers: { ...FORGED, "x-delivery-id": "forged-1" }, body: JSON.stringify({ data: { id: "1" } }) });
      expect(refused(r), `${path}: ${r.status} ${r.text.slice(0, 200)}`).toBe(true);
    }
  });

  it("the other protocols and the console: every spelling needs its credential", async () => {
    for (const path of spellings("exchange", "drivers/classes")) {
      const r = await send(server.url, "GET", path, { from: "127.0.0.4", headers: FORGED });
      expect(refused(r), `${path}: ${r.status} ${r.text.slice(0, 200)}`).toBe(true);
    }
    for (const path of spellings("api", "drivers")) {
      const r = await send(server.url, "GET", path, { from: "127.0.0.4", headers: FORGED });
      // The dispatch API answers errors with HTTP 200 and its own error form; an unknown path is 404.
      expect(r.status === 200 ? JSON.parse(r.text) : { status: r.status }, path).not.toMatchObject({ status: "DONE" });
    }
    for (const path of spellings("driver-app", "v1/profile")) {
      const r = await send(server.url, "GET", path, { from: "127.0.0.4", headers: FORGED });
      expect(refused(r), `${path}: ${r.status} ${r.text.slice(0, 200)}`).toBe(true);
    }
    for (const path of spellings("api", "trpc/orders.board")) {
      const r = await send(server.url, "GET", path, { from: "127.0.0.4", headers: FORGED });
      // Refused, or Next's redirect of a trailing slash to the same path on this host.
      expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBeGreaterThanOrEqual(300);
      if (r.status < 400) expect(String(r.headers.location), path).toMatch(/^\/api\/trpc\/orders\.board$/);
      expect(r.text, path).not.toContain('"result"');
    }
  });

  it("the panel's listener: without a certificate only static files, under no spelling anything else", async () => {
    const targets = [...spellings("participant", "drivers"), ...spellings("api", "trpc/session.me"), ...spellings("api", "version"), ...spellings("orders", ""), ...spellings("panel", "")];
    for (const path of targets) {
      for (const method of ["GET", "POST"]) {
        const r = await send(server.panelUrl, method, path, { from: "127.0.0.5", headers: FORGED, ...(method === "POST" ? { body: "{}" } : {}) });
        expect([302, 400, 403, 404], `${method} ${path}: ${r.status} ${r.text.slice(0, 200)}`).toContain(r.status);
        if (r.status === 302) expect(r.headers.location).toBe("/panel");
        expect(r.text, path).not.toContain('"drivers"');
      }
    }
    for (const path of ["/_next/image?url=%2Fapi%2Fversion&w=64&q=75", "/_next/data/x/y.json", "/_next/../api/version", "/_next/static/../../api/version", "/_next/%2e%2e/participant/drivers"]) {
      const r = await send(server.panelUrl, "GET", path, { from: "127.0.0.5" });
      expect([400, 403, 404], `${path}: ${r.status} ${r.text.slice(0, 200)}`).toContain(r.status);
    }
    // Static files are there (the panel's pages need them), read only.
    const page = await send(server.url, "GET", "/signin", { from: "127.0.0.6" });
    const asset = /\/_next\/static\/[^"'\s]+\.(?:js|css)/.exec(page.text)?.[0];
    expect(asset, "a static file named by the sign-in page").toBeTruthy();
    expect((await send(server.panelUrl, "GET", asset!, { from: "127.0.0.5" })).status).toBe(200);
    expect((await send(server.panelUrl, "POST", asset!, { from: "127.0.0.5", body: "{}" })).status).toBe(404);
  });

  it("tracking links: no spelling of a link's data path answers more than the canonical one (a 404 for a token that names no order), never a 500", async () => {
    const token = "q4Xz0b9YwWm3kH2pLs8VrA";
    for (const rest of [`${token}/state`, `${token}/call`, token]) {
      for (const path of spellings("t", rest)) {
        const r = await send(server.url, "GET", path, { from: "127.0.0.8" });
        // Next sends a page's trailing-slash spelling to the canonical page (308), which then answers like the rest.
        const toCanonical = r.status === 308 && String(r.headers.location ?? "") === `/t/${rest}`;
        expect(refused(r) || toCanonical, `${path}: ${r.status} ${r.text.slice(0, 200)}`).toBe(true);
        expect(r.headers.location ?? "", path).not.toMatch(/^tel:/);
      }
    }
    for (const path of spellings("t", `${token}/state`)) {
      const r = await send(server.panelUrl, "GET", path, { from: "127.0.0.5" });
      expect([302, 400, 403, 404], `panel ${path}: ${r.status}`).toContain(r.status);
    }
  });

  it("a path that is not a valid target is a 400 on both listeners, never a 500", async () => {
    for (const base of [server.url, server.panelUrl]) {
      for (const path of ["/participant/%ff", "/api/trpc/%E0%A4%A", "/x/%00/../participant/drivers", "/participant/%0a/drivers"]) {
        const r = await send(base, "GET", path, { from: "127.0.0.7" });
        expect(r.status, `${base}${path}: ${r.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${base}${path}`).toBeLessThan(500);
      }
    }
  });
});
