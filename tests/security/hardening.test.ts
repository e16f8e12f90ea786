// Hardening of round three, over real sockets:
//   - slow clients are cut at the documented limits (docs/operations.md): a
//     request head within 20 s, a whole request within 60 s, measured to
//     within the second Node now checks them at (connectionsCheckingInterval;
//     before, 30 s: heads were cut at up to 50 s, bodies at up to 90 s);
//   - the console's tRPC door takes a POST only as application/json (415 in
//     tRPC's error form for form data and octet streams);
//   - the benchmark's Next route opens nothing with a setting alone.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DB } from "../reliability/support/db";
import { closeAgents, send } from "../reliability/support/http";
import { adminCookie, freshAddress, startWithMetrics, type Started } from "./support/round-three";

const HEADERS_TIMEOUT_S = 20;
const REQUEST_TIMEOUT_S = 60;
/**
 * The check runs every second; a loaded machine adds more (on PGlite, whose
 * queries run on the server's thread, a head was cut at 26.4 s with the
 * machine's load at 15 on 2 cores). With the old 30 s check a head was cut
 * anywhere in 20–50 s and a body in 60–90 s, so this bound still catches
 * that with both clients nine times in ten, and never fails a server that
 * keeps the limits on a busy machine.
 */
const SLACK_S = 8;

let s: Started;
let admin: string;

beforeAll(async () => {
  s = await startWithMetrics({ BENCH_ROUTES: "1" });
  admin = await adminCookie(s.app.url);
}, 300_000);

afterAll(async () => {
  closeAgents();
  await s?.app.stop();
  await s?.database.drop();
});

/** Writes `first`, then one byte of `drip` every `everyMs`, and reports when the server answered or closed, in seconds. */
function slowClient(first: string, drip: string, everyMs: number): Promise<{ seconds: number; reply: string }> {
  const u = new URL(s.app.url);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect({ host: u.hostname, port: Number(u.port), localAddress: freshAddress() });
    let reply = "";
    let at = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearInterval(timer);
      socket.destroy();
      resolve({ seconds: (Date.now() - started) / 1000, reply });
    };
    socket.on("connect", () => {
      socket.write(first);
      timer = setInterval(() => {
        if (at < drip.length) socket.write(drip[at++]!);
      }, everyMs);
    });
    socket.on("data", (d: Buffer) => (reply += d.toString("latin1")));
    socket.on("close", finish);
    socket.on("error", finish);
  });
}

// On PostgreSQL only: slow heads and bodies, the tRPC door's content types and the benchmark's route are decided before any statement, the same on either database; on this lane because the PGlite lane is the longer one (issue 35).
describe.skipIf(TEST_DB !== "postgres")("slow clients", () => {
  it("a head sent a byte at a time is cut at 20 s, a body at 60 s (to within the check's second)", async () => {
    const host = new URL(s.app.url).host;
    const [head, body] = await Promise.all([
      slowClient("GET /api/version HTTP/1.1\r\n", `Host: ${host}\r\nX-Slow: ${"a".repeat(200)}\r\n\r\n`, 500),
      slowClient(`POST /api/version HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n`, "a".repeat(1000), 500),
    ]);
    console.info(`slow clients: the head was cut after ${head.seconds.toFixed(1)} s, the body after ${body.seconds.toFixed(1)} s`);
    expect(head.seconds, head.reply.slice(0, 100)).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_S - 1);
    expect(head.seconds).toBeLessThanOrEqual(HEADERS_TIMEOUT_S + SLACK_S);
    expect(body.seconds, body.reply.slice(0, 100)).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_S - 1);
    expect(body.seconds).toBeLessThanOrEqual(REQUEST_TIMEOUT_S + SLACK_S);
    expect(head.reply).toMatch(/^HTTP\/1\.1 408/);
    expect(body.reply).toMatch(/^HTTP\/1\.1 408/);
  }, 120_000);
});

describe.skipIf(TEST_DB !== "postgres")("the console's tRPC door", () => {
  it("takes a POST only as JSON: form data and octet streams are 415 in tRPC's form", async () => {
    for (const type of ["multipart/form-data; boundary=x", "application/octet-stream", "text/plain", "application/x-www-form-urlencoded", "application/jsonp", ""]) {
      const r = await send(s.app.url, {
        method: "POST",
        path: "/api/trpc/session.setLocale",
        headers: { cookie: admin, ...(type ? { "content-type": type } : {}) },
        body: type.startsWith("multipart") ? '--x\r\nContent-Disposition: form-data; name="locale"\r\n\r\nen\r\n--x--\r\n' : '{"json":{"locale":"en"}}',
        localAddress: freshAddress(),
      });
      expect(r.status, type).toBe(415);
      expect((JSON.parse(r.text) as { error: { json: { data: { code: string } } } }).error.json.data.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    }
    const ok = await send(s.app.url, { method: "POST", path: "/api/trpc/session.setLocale", headers: { cookie: admin, "content-type": "application/json; charset=utf-8" }, body: '{"json":{"locale":"en"}}' });
    expect(ok.status).toBe(200);
  });
});

describe.skipIf(TEST_DB !== "postgres")("the benchmark's route", () => {
  it("is not served on a setting alone (BENCH_ROUTES=1), nor with a token nobody was given", async () => {
    const tries: Array<Record<string, string>> = [{}, { authorization: "Bearer 1" }, { authorization: `Bearer ${"0".repeat(48)}` }];
    for (const headers of tries) {
      const read = await send(s.app.url, { method: "GET", path: "/bench/order?uuid=00000000-0000-4000-8000-000000000000", headers, localAddress: freshAddress() });
      expect(read.status).toBe(404);
      const write = await send(s.app.url, { method: "POST", path: "/bench/order", headers: { ...headers, "content-type": "application/x-www-form-urlencoded" }, body: "phone=%2B79160000001&street=x&house=1", localAddress: freshAddress() });
      expect(write.status).toBe(404);
    }
  });
});
