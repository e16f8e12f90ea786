// The participants' control panel in the route walk: with TLS on (the
// development set), every panel page under app/panel (read from the file
// system, so a new page is walked too) refuses a request without a client
// certificate, and one with a forged identity header, on the panel's own
// listener; the main listener only points to the panel's port. (Valid,
// foreign, revoked and expired certificates: tests/integration/certificates.test.ts.)
import https from "node:https";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DB } from "../reliability/support/db";
import { startTlsServer, type TlsServer } from "../support/tls-server";
import type { TestDatabase } from "../reliability/support/db";
import { freshDatabase, template } from "../reliability/support/instance";
import { appRoutes } from "../reliability/support/routes";

let database: TestDatabase;
let server: TlsServer;

function get(base: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = https.request({ host: u.hostname, port: u.port, path, method: "GET", headers, rejectUnauthorized: false, agent: false, timeout: 30_000 }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error(`no reply: ${path}`)));
    req.end();
  });
}

const panelPages = () => appRoutes().filter((r) => r.kind === "page" && (r.url === "/panel" || r.url.startsWith("/panel/")));

beforeAll(async () => {
  database = await freshDatabase();
  server = await startTlsServer({ appSecret: template().appSecret, env: { ...database.env, SIMULATE: "0", SEED_DEMO: "0", NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next" } });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

// On PostgreSQL only: the panel's TLS listener and its client-certificate check come before any statement, the same on either database (issue 35).
describe.skipIf(TEST_DB !== "postgres")("the control panel behind a client certificate", () => {
  it("walks every panel page: no certificate, a forged identity header: refused; the main listener only points to the panel", async () => {
    const pages = panelPages();
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) {
      const none = await get(server.panelUrl, page.url);
      expect(none.status, `${page.url}: ${none.text.slice(0, 200)}`).toBe(403);
      expect(none.headers["x-panel-refusal"]).toBe("NO_CERTIFICATE");
      const forged = await get(server.panelUrl, page.url, { "x-panel-identity": "1.1.1.forged-signature" });
      expect(forged.status, page.url).toBe(403);
      const main = await get(server.url, page.url, { "x-panel-identity": "1.1.1.forged-signature" });
      expect(main.status, page.url).toBe(307);
      expect(String(main.headers.location)).toContain(`:${server.panelPort}`);
    }
    // Nothing else is served on the panel's listener.
    expect((await get(server.panelUrl, "/api/version")).status).toBe(404);
    expect((await get(server.panelUrl, "/orders")).status).toBe(404);
  });
});
