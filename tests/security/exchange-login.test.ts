// A failed login to the exchange is logged with its real reason (issue 26):
// the demo logged `exchange login failed` with the bare code INTERNAL every
// two seconds, which told nobody what was wrong. Here our participant logs in
// (EXCHANGE_URL, EXCHANGE_CLIENT_KEY) to an exchange that refuses it, and the
// server's log must say why, in each way a login can fail:
//   - the exchange refuses the key: 401 with its own words;
//   - the exchange answers 461, the one error the reference lists for
//     POST /session ("the HTTP method does not fit this operation"), with
//     no body;
//   - the exchange answers 200 without a token;
//   - the exchange is down (nothing listens);
//   - the exchange's address is not allowed for outgoing calls (loopback,
//     with no OUTGOING_ALLOW: the demo's own failure).
//
// The exchange is a stub written from the exchange's reference
// (shared/spec/exchange-api.md: POST {exchange_url}/session with `data.key`,
// the reply's `data.token`), not from our code. Error bodies are not shown
// there: the refusal uses JSON:API's error object (`errors[]` with `status`,
// `code`, `title`, `detail`), the reference's wrappers being JSON:API's.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DB } from "../reliability/support/db";
import type { TestDatabase } from "../reliability/support/db";
import { freshDatabase, startInstance, type AppInstance } from "../reliability/support/instance";
import { until } from "../support/wait";

type Mode = "wrong-key" | "461" | "no-token";

/** What the stub was asked: the path and the login's body. */
interface Login {
  path: string;
  body: unknown;
}

class StubExchange {
  mode: Mode = "wrong-key";
  readonly logins: Login[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly server = http.createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0]!;
      if (req.method !== "POST" || path !== "/exchange/session") {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ errors: [{ status: "404", title: "Not Found" }] }));
        return;
      }
      let body: unknown = text;
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        // kept as text: the test reads it
      }
      this.logins.push({ path, body });
      if (this.mode === "wrong-key") {
        res.writeHead(401, { "content-type": "application/vnd.api+json" });
        res.end(JSON.stringify({ errors: [{ status: "401", code: "Unauthorized", title: "Unauthorized", detail: "the client key is not known to this exchange" }] }));
      } else if (this.mode === "461") {
        res.writeHead(461, "MethodNotAllowed").end();
      } else {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data: { slaves: "", trusted: "" } }));
      }
    });
  });

  constructor() {
    this.server.on("connection", (socket: Socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return (this.server.address() as AddressInfo).port;
  }

  /** Stops listening and cuts every connection: the exchange is down. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

interface LoginFailure {
  level: string;
  message: string;
  extra?: { code?: unknown; reason?: unknown; remoteStatus?: unknown; error?: unknown };
}

/** The `exchange login failed` lines of the output from `from` on. */
function loginFailures(output: string, from = 0): LoginFailure[] {
  return output
    .slice(from)
    .split("\n")
    .flatMap((line) => {
      try {
        const parsed = JSON.parse(line) as LoginFailure;
        return parsed.message === "exchange login failed" ? [parsed] : [];
      } catch {
        return [];
      }
    });
}

/** Waits for a login failure logged after `from` whose reason matches. */
async function failureMatching(app: AppInstance, from: number, reason: RegExp): Promise<LoginFailure> {
  return until(
    `a login failure logged with a reason matching ${reason}`,
    () => loginFailures(app.output(), from).find((line) => typeof line.extra?.reason === "string" && reason.test(line.extra.reason)),
    60_000,
  );
}

// On PostgreSQL only: a login to an exchange stub is an outgoing HTTP exchange logged by the client, the same on either database (issue 35).
describe.skipIf(TEST_DB !== "postgres")("a failed exchange login logs its reason", () => {
  const clientKey = `participant-key-${randomUUID()}`;
  const stub = new StubExchange();
  let databases: TestDatabase[] = [];
  let app: AppInstance;
  let refusedApp: AppInstance;

  beforeAll(async () => {
    const port = await stub.listen();
    databases = await Promise.all([freshDatabase(), freshDatabase()]);
    [app, refusedApp] = await Promise.all([
      // The launcher allows loopback (OUTGOING_ALLOW=127.0.0.0/8,::1), where the stub listens.
      startInstance(databases[0]!, { env: { EXCHANGE_URL: `http://127.0.0.1:${port}/exchange`, EXCHANGE_CLIENT_KEY: clientKey } }),
      // The product's default: loopback refused.
      startInstance(databases[1]!, { env: { EXCHANGE_URL: `http://127.0.0.1:${port}/exchange`, EXCHANGE_CLIENT_KEY: clientKey, OUTGOING_ALLOW: "" } }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([app?.stop(), refusedApp?.stop()]);
    await stub.close().catch(() => undefined);
    await Promise.all(databases.map((d) => d.drop()));
  });

  it("the exchange refuses the key: its status and its own words are logged", async () => {
    const line = await failureMatching(app, 0, /not known to this exchange/);
    expect(line.level).toBe("warn");
    expect(line.extra).toMatchObject({ code: "UNAUTHORIZED", remoteStatus: 401 });
    // The login was the reference's: POST {exchange_url}/session with data.key.
    expect(stub.logins[0]).toEqual({ path: "/exchange/session", body: { data: { key: clientKey } } });
  });

  it("the exchange answers 461 with no body: the status is logged", async () => {
    const from = app.output().length;
    stub.mode = "461";
    const line = await failureMatching(app, from, /461/);
    expect(line.extra).toMatchObject({ remoteStatus: 461 });
  });

  it("the exchange answers 200 without a token: that is logged, not 'refused'", async () => {
    const from = app.output().length;
    stub.mode = "no-token";
    const line = await failureMatching(app, from, /token/);
    expect(line.extra).toMatchObject({ remoteStatus: 200 });
    expect(String(line.extra?.reason)).not.toMatch(/refused/);
  });

  it("the exchange is down: 'unreachable' and why", async () => {
    const from = app.output().length;
    await stub.close();
    const line = await failureMatching(app, from, /unreachable/);
    expect(String(line.extra?.reason)).toMatch(/connect/);
  });

  it("the exchange's address is not allowed for outgoing calls: that is logged", async () => {
    await failureMatching(refusedApp, 0, /not allowed for outgoing calls/);
  });

  it("no login failure is ever logged as a bare code", () => {
    const lines = [...loginFailures(app.output()), ...loginFailures(refusedApp.output())];
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of lines) {
      expect(typeof line.extra?.reason, JSON.stringify(line)).toBe("string");
      expect(String(line.extra?.reason).length, JSON.stringify(line)).toBeGreaterThan(10);
    }
  });
});
