// Outgoing calls to addresses the server was given (here: integrators'
// status callbacks) go through one client: a redirect is a failed attempt and
// is never followed, an address outside the policy is never connected to, an
// endless reply is cut off at the size cap, and what the delivery log keeps
// is a category, not socket text. The server allows only 127.0.0.1 here
// (OUTGOING_ALLOW), as an operator would allow one internal receiver.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueApiKey } from "@/server/auth/api-keys";
import type { TestDatabase } from "../reliability/support/db";
import { dispatchClient } from "../reliability/support/dispatch";
import { closeAgents } from "../reliability/support/http";
import { freshDatabase, startInstance, type AppInstance } from "../reliability/support/instance";
import { until as waitUntil } from "../support/wait";

interface Receiver {
  url: string;
  hits: string[];
  stop: () => Promise<void>;
}

async function receiver(host: string, respond: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Receiver> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    respond(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    hits,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function until(what: string, check: () => boolean, ms = 60_000): Promise<true> {
  return waitUntil(what, check, ms, 50);
}

let database: TestDatabase;
let app: AppInstance;
const receivers: Receiver[] = [];
let target: Receiver;
let redirecting: Receiver;
let refused: Receiver;
let endless: Receiver;
let healthy: Receiver;
/** Each reply the endless receiver began: bytes written, and whether the reader closed it. */
const endlessReplies: Array<{ bytes: number; closed: boolean }> = [];
const keys = { redirect: `redirect-${randomUUID()}`, refused: `refused-${randomUUID()}`, endless: `endless-${randomUUID()}`, healthy: `healthy-${randomUUID()}` };

beforeAll(async () => {
  target = await receiver("127.0.0.1", (_req, res) => res.end("ok"));
  redirecting = await receiver("127.0.0.1", (_req, res) => {
    res.writeHead(307, { location: `${target.url}/participant/on/order/cancelled` });
    res.end();
  });
  // Listens on an address the policy does not allow.
  refused = await receiver("127.0.0.3", (_req, res) => res.end("ok"));
  endless = await receiver("127.0.0.1", (_req, res) => {
    res.writeHead(200, { "content-type": "application/octet-stream" });
    const reply = { bytes: 0, closed: false };
    endlessReplies.push(reply);
    // Closed by the reader: the event the check below waits for.
    res.once("close", () => (reply.closed = true));
    const chunk = Buffer.alloc(64 * 1024, 120);
    const pump = () => {
      while (!res.destroyed && res.write(chunk)) reply.bytes += chunk.length;
      if (!res.destroyed) res.once("drain", pump);
    };
    pump();
  });
  healthy = await receiver("127.0.0.1", (_req, res) => res.end("ok"));
  receivers.push(target, redirecting, refused, endless, healthy);

  database = await freshDatabase();
  await database.use(async (prisma) => {
    await issueApiKey(prisma, { name: "redirecting receiver", key: keys.redirect, callbackTemplate: `${redirecting.url}/cb/%uuid%/%status_code%` });
    await issueApiKey(prisma, { name: "refused receiver", key: keys.refused, callbackTemplate: `${refused.url}/cb/%uuid%/%status_code%` });
    await issueApiKey(prisma, { name: "endless receiver", key: keys.endless, callbackTemplate: `${endless.url}/cb/%uuid%/%status_code%` });
    await issueApiKey(prisma, { name: "healthy receiver", key: keys.healthy, callbackTemplate: `${healthy.url}/cb/%uuid%/%status_code%` });
  });
  app = await startInstance(database, { env: { OUTGOING_ALLOW: "127.0.0.1/32", OUTBOX_POLL_MS: "50", RATE_LIMIT_PER_KEY: "0", RATE_LIMIT_PER_ADDRESS: "0" } });
}, 300_000);

afterAll(async () => {
  closeAgents();
  await app?.stop();
  for (const r of receivers) await r.stop();
  await database?.drop();
});

async function order(key: string): Promise<string> {
  const api = dispatchClient(app.url, key);
  const reply = await api.post<{ uuid?: string; order_id?: string }>("order", { phone: "+79161234567", street: "ул. Ленина", house: "3" });
  expect(reply.status, JSON.stringify(reply.error)).toBe("DONE");
  return String(reply.response.uuid ?? reply.response.order_id ?? "");
}

describe("one outgoing client: no redirects, an address policy, a size cap", () => {
  it("delivers to an allowed receiver; a redirect is a failed attempt never followed; a refused address is never contacted; an endless reply is cut off", async () => {
    await order(keys.redirect);
    await order(keys.refused);
    await order(keys.endless);
    await order(keys.healthy);
    // The worker has run over all four messages once the healthy one arrived
    // and the redirecting one was tried again (a retry: its first attempt failed).
    await until("the healthy callback", () => healthy.hits.length >= 1);
    await until("a second attempt at the redirecting receiver", () => redirecting.hits.length >= 2, 90_000);
    await until("the endless receiver to be called", () => endless.hits.length >= 1);
    expect(target.hits, "the redirect's target").toEqual([]);
    expect(refused.hits, "the receiver on a refused address").toEqual([]);
    // Cut at the cap (64 KiB for callbacks) plus what was in flight, not streamed on.
    await until("the endless reply to be closed by our server", () => endlessReplies.length > 0 && endlessReplies[0]!.closed);
    expect(endlessReplies[0]!.bytes, "the endless reply is no longer read").toBeLessThan(8 * 1024 * 1024);
  });

  it("the delivery log keeps categories, not socket text", async () => {
    await app.kill();
    const attempts = await database.use((_prisma, query) =>
      query<{ target: string; error: string | null; http_status: number | null }>(
        `SELECT m.target, a.error, a.http_status FROM delivery_attempt a JOIN outbox_message m ON m.id = a.message_id WHERE m.channel = 'callback' ORDER BY a.id`,
      ),
    );
    const errorsFor = (base: string) => attempts.filter((a) => a.target.startsWith(base)).map((a) => a.error);
    expect(errorsFor(redirecting.url)[0]).toMatch(/redirect/);
    expect(attempts.find((a) => a.target.startsWith(redirecting.url))?.http_status).toBe(307);
    expect(errorsFor(refused.url)[0]).toMatch(/not allowed/);
    expect(errorsFor(endless.url)[0]).toMatch(/larger than allowed/);
    expect(errorsFor(healthy.url)[0]).toBeNull();
    for (const a of attempts) expect(a.error ?? "", a.target).not.toMatch(/ECONN|127\.0\.0\.\d|DNS lookup|socket/i);
  });
});
