// The participants' control panel over real HTTPS: a server started with
// TLS (the generated development set) on a database filled beforehand
// (tests/support/panel-fixtures.ts), requests made with Node's https and the
// PKCS#12 files the certificate authority issued. A certificate from our
// root opens the panel on its participant's data only; a foreign
// authority's, a revoked, an expired one, one under a revoked intermediate
// and none at all are refused; a forged identity header opens nothing,
// neither over HTTPS nor over plain HTTP.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import forge from "node-forge";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signPanelIdentity, PANEL_IDENTITY_HEADER } from "@/server/panel/identity";
import { readPkcs12, serialOf } from "@/server/certificates/x509";
import { prepareDatabase, TEST_DB, type PreparedDb } from "../support/exchange/db";
import { fillPanelFixture, P12_PASSWORD, type PanelCert, type PanelFixture } from "../support/panel-fixtures";
import { startTlsServer, type TlsServer } from "../support/tls-server";
import { withAppSecret } from "../support/app-secret";

// the suite's shared server keeps the secret it was started with (tests/support/server.ts)
const SHARED_SECRET = process.env.APP_SECRET ?? "test-secret-test-secret-test-secret-0123";
// The fixture's keys are sealed with it (withAppSecret: the files of a lane share one process).
const SECRET = "panel-test-secret-panel-test-secret-0123456789";

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The request went over a connection opened before (keep-alive). */
  reused: boolean;
}

let server: TlsServer;
let prepared: PreparedDb;
let fixture: PanelFixture;
let dataDir: string;

function get(base: string, pathname: string, options: { cert?: PanelCert; headers?: Record<string, string>; agent?: https.Agent; passphrase?: string } = {}): Promise<Reply> {
  const url = new URL(pathname, base);
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: "GET",
        // the server's certificate must chain to the development root, for the name localhost
        ca: fixture.rootPem,
        servername: "localhost",
        headers: { "accept-language": "en", ...(options.headers ?? {}) },
        ...(options.cert ? { pfx: options.cert.pfx, passphrase: options.passphrase ?? P12_PASSWORD } : {}),
        agent: options.agent ?? false,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, reused: req.reusedSocket }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

const panel = (pathname: string, options: Parameters<typeof get>[2] = {}) => get(server.panelUrl, pathname, options);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "taxi-panel-"));
  const made = await withAppSecret(SECRET, () => prepareDatabase(TEST_DB, fillPanelFixture));
  prepared = made.db;
  fixture = made.result;
  server = await startTlsServer({ appSecret: SECRET, env: { DATA_DIR: dataDir, ...prepared.env } });
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await prepared?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the certificate authority", () => {
  it("issues password-protected PKCS#12 files with the key and the chain up to the root", () => {
    const p12 = readPkcs12(fixture.certs.a.pfx, P12_PASSWORD);
    expect(p12.hasKey).toBe(true);
    expect(p12.certificates).toHaveLength(3);
    expect(p12.certificates.map(serialOf)).toContain(fixture.certs.a.serial);
    expect(() => readPkcs12(fixture.certs.a.pfx, "not-the-password")).toThrow();
  });

  it("encrypts the files with AES-256 under PBKDF2-HMAC-SHA256 (not 3DES with the SHA-1 KDF), readable by OpenSSL", () => {
    const der = fixture.certs.a.pfx.toString("hex");
    const oid = (dotted: string) => Buffer.from(forge.asn1.oidToDer(dotted).getBytes(), "binary").toString("hex");
    expect(der).toContain(oid("2.16.840.1.101.3.4.1.42")); // aes256-CBC
    expect(der).toContain(oid("1.2.840.113549.2.9")); // hmacWithSHA256 (the PBKDF2 PRF)
    expect(der).not.toContain(oid("1.2.840.113549.1.12.1.3")); // pbeWithSHAAnd3-KeyTripleDES-CBC
    const info = spawnSync("openssl", ["pkcs12", "-info", "-nokeys", "-passin", `pass:${P12_PASSWORD}`], { input: fixture.certs.a.pfx, encoding: "latin1" });
    if (info.error) return; // no openssl on this machine: the OIDs above still hold
    expect(info.stderr).toMatch(/PBES2, PBKDF2, AES-256-CBC/);
  });

  it("serves HTTPS with the development set, its certificate chaining to the root for localhost", async () => {
    const reply = await get(server.url, "/api/version");
    expect(reply.status).toBe(200);
    expect(server.rootPem.trim()).toBe(fixture.rootPem.trim());
    // over TLS, browsers are told to stay on HTTPS (the API, Next's pages and the panel alike)
    expect(reply.headers["strict-transport-security"]).toBe("max-age=31536000");
    expect((await get(server.url, "/signin")).headers["strict-transport-security"]).toBe("max-age=31536000");
    expect((await panel("/panel", { cert: fixture.certs.a })).headers["strict-transport-security"]).toBe("max-age=31536000");
  });
});

describe("a certificate issued by our root", () => {
  it("opens the panel on its participant's overview", async () => {
    const reply = await panel("/panel", { cert: fixture.certs.a });
    expect(reply.status, reply.body.slice(0, 500)).toBe(200);
    expect(reply.body).toContain("Такси Север");
    expect(reply.body).toContain("Анна Смирнова");
    // 1000 deposit + 450 sale - 22.50 commission = 1427.50
    expect(reply.body).toMatch(/1[\s\u00a0\u202f,]?427[.,]50/);
    for (const secret of fixture.bSecrets) expect(reply.body).not.toContain(secret);
  });

  it("shows only its own orders, sold and bought, with prices and states", async () => {
    const sold = await panel("/panel/orders?role=sold", { cert: fixture.certs.a });
    expect(sold.status).toBe(200);
    expect(sold.body).toContain(`data-order="${fixture.orders.aSoldDone}"`);
    expect(sold.body).toContain(`data-order="${fixture.orders.aSoldFree}"`);
    expect(sold.body).toContain("ул. Ленина");
    expect(sold.body).toContain("DONE_SUCCESSFUL");
    expect(sold.body).not.toContain(`data-order="${fixture.orders.bSecret}"`);

    const bought = await panel("/panel/orders?role=bought", { cert: fixture.certs.a });
    expect(bought.body).toContain(`data-order="${fixture.orders.bSoldToA}"`);
    expect(bought.body).toContain("ул. Южная");
    expect(bought.body).not.toContain(`data-order="${fixture.orders.aSoldDone}"`);
    for (const secret of fixture.bSecrets) {
      expect(sold.body).not.toContain(secret);
      expect(bought.body).not.toContain(secret);
    }
  });

  it("opens its own order's page and not another participant's order", async () => {
    const mine = await panel(`/panel/orders/${fixture.orders.aSoldDone}`, { cert: fixture.certs.a });
    expect(mine.status).toBe(200);
    expect(mine.body).toContain("ул. Ленина");
    expect(mine.body).toContain("commission on the sale");
    const theirs = await panel(`/panel/orders/${fixture.orders.bSecret}`, { cert: fixture.certs.a });
    expect(theirs.status).toBe(404);
    for (const secret of fixture.bSecrets) expect(theirs.body).not.toContain(secret);
  });

  it("shows its ledger with the commission, and its notifications with their delivery", async () => {
    const ledger = await panel("/panel/balance", { cert: fixture.certs.a });
    expect(ledger.status).toBe(200);
    expect(ledger.body).toContain('data-kind="COMMISSION"');
    expect(ledger.body).toContain("commission on the sale");
    expect(ledger.body).not.toContain("commission on the purchase");
    expect(ledger.body).not.toContain("secret deposit of B");

    const notifications = await panel("/panel/notifications", { cert: fixture.certs.a });
    expect(notifications.status).toBe(200);
    expect(notifications.body).toContain("http://a-server.test/on/order/registered");
    expect(notifications.body).toContain('data-delivery="PENDING"');
    expect(notifications.body).toContain("ECONNREFUSED");
    expect(notifications.body).not.toContain("b-secret-server.test");

    const profile = await panel("/panel/profile", { cert: fixture.certs.a });
    expect(profile.body).toContain("dispatch@sever.test");
    expect(profile.body).toContain("sever-dispatch 2.1");
    for (const secret of fixture.bSecrets) expect(profile.body).not.toContain(secret);
  });

  it("opens the other participant's panel on that participant's data", async () => {
    const reply = await panel("/panel", { cert: fixture.certs.b });
    expect(reply.status).toBe(200);
    expect(reply.body).toContain("Такси Юг");
    expect(reply.body).toContain("Boris Secret");
    const sold = await panel("/panel/orders?role=sold", { cert: fixture.certs.b });
    expect(sold.body).toContain(`data-order="${fixture.orders.bSecret}"`);
    expect(sold.body).not.toContain(`data-order="${fixture.orders.aSoldFree}"`);
  });

  it("speaks Russian with the locale cookie", async () => {
    const reply = await panel("/panel", { cert: fixture.certs.a, headers: { cookie: "locale=ru" } });
    expect(reply.body).toContain("Баланс на бирже");
    expect(reply.body).toContain('lang="ru"');
  });
});

describe("refusals", () => {
  const refused = async (cert: PanelCert | undefined, reason: string) => {
    const reply = await panel("/panel", cert ? { cert } : {});
    expect(reply.status).toBe(403);
    expect(reply.headers["x-panel-refusal"]).toBe(reason);
    expect(reply.body).toContain("Access refused");
    expect(reply.body).not.toContain("Такси Север");
    expect(reply.body).not.toContain("1 427");
  };

  it("refuses a certificate from another authority (even with our names and serial)", () => refused(fixture.certs.foreign, "FOREIGN_AUTHORITY"));
  it("refuses a revoked certificate", () => refused(fixture.certs.revoked, "REVOKED"));
  it("refuses an expired certificate", () => refused(fixture.certs.expired, "EXPIRED"));
  it("refuses a certificate under a revoked intermediate authority", () => refused(fixture.certs.revokedIntermediate, "REVOKED"));
  it("refuses a request without a certificate", () => refused(undefined, "NO_CERTIFICATE"));

  it("refuses every panel page and order page without a certificate", async () => {
    for (const pathname of ["/panel/orders", "/panel/balance", "/panel/notifications", "/panel/profile", `/panel/orders/${fixture.orders.aSoldDone}`, "/panel/orders?_rsc=1"]) {
      const reply = await panel(pathname);
      expect(reply.status, pathname).toBe(403);
    }
  });

  it("refuses a properly signed identity header sent by a client, on both listeners", async () => {
    const forged = signPanelIdentity({ participantId: fixture.a.id, serial: fixture.certs.a.serial }, Date.now(), SECRET);
    const noCert = await panel("/panel", { headers: { [PANEL_IDENTITY_HEADER]: forged, "x-panel-participant": String(fixture.a.id) } });
    expect(noCert.status).toBe(403);
    expect(noCert.body).not.toContain("Такси Север");

    // with B's certificate and A's forged identity: B's panel, never A's
    const swapped = await panel("/panel", { cert: fixture.certs.b, headers: { [PANEL_IDENTITY_HEADER]: forged } });
    expect(swapped.status).toBe(200);
    expect(swapped.body).toContain("Такси Юг");
    expect(swapped.body).not.toContain("Анна Смирнова");

    // the console's listener never serves the panel: it points to the panel's port
    const main = await get(server.url, "/panel", { headers: { [PANEL_IDENTITY_HEADER]: forged } });
    expect(main.status).toBe(307);
    expect(main.headers.location).toBe(`https://127.0.0.1:${server.panelPort}/panel`);
    expect(main.body).not.toContain("Такси Север");
  });

  it("does not speak plain HTTP on the panel's port", async () => {
    const attempt = new Promise<number>((resolve) => {
      const req = http.get({ host: "127.0.0.1", port: server.panelPort, path: "/panel", agent: false, headers: { [PANEL_IDENTITY_HEADER]: "x" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", () => resolve(0));
    });
    expect(await attempt).not.toBe(200);
  });

  it("does not open the panel over plain HTTP on a server without TLS, even with a signed header", async () => {
    // the suite's shared server (tests/support/global-setup.ts) runs without TLS
    const forged = signPanelIdentity({ participantId: 1, serial: "01" }, Date.now(), SHARED_SECRET);
    const res = await fetch(`${inject("baseUrl")}/panel`, { headers: { [PANEL_IDENTITY_HEADER]: forged } });
    const body = await res.text();
    expect(res.status).toBe(404);
    expect(body).toContain("not enabled");
  });

  it.runIf(TEST_DB === "postgres")("ends access at once when a certificate is revoked, on an open connection too", async () => {
    const { revokeCertificate } = await import("@/server/certificates");
    const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const before = await panel("/panel", { cert: fixture.certs.b, agent });
      expect(before.status).toBe(200);
      const { prisma, close } = await prepared.open();
      try {
        await revokeCertificate(prisma, fixture.certs.b.serial);
      } finally {
        await close();
      }
      const after = await panel("/panel", { cert: fixture.certs.b, agent });
      expect(after.reused).toBe(true);
      expect(after.status).toBe(403);
      expect(after.headers["x-panel-refusal"]).toBe("REVOKED");
    } finally {
      agent.destroy();
    }
  });
});
