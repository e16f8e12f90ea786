// A driver app's long-lived calls are re-authorised (server/driver-app/offers.ts):
// when the driver's key is replaced (from the console), revoked (the
// provisioning call) or the driver disabled, an open offer stream ends
// within about a second with `event: error` UNAUTHORIZED, and a waiting long
// poll answers 401. Before the fix a revoked key's stream kept receiving
// offers for up to five minutes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisioningKeyFor } from "@/server/driver-app/keys";
import { closeAgents, send } from "../reliability/support/http";
import { until } from "../support/wait";
import { TEST_DB } from "../reliability/support/db";
import { template } from "../reliability/support/instance";
import { trpcMutation, trpcQuery } from "../reliability/support/console";
import { adminCookie, openStream, startWithMetrics, within, type Started } from "./support/round-three";

let s: Started;
const PLACES = 6;
let admin: string;
let drivers: Array<{ id: number; callSign: string }>;

beforeAll(async () => {
  // Six requests in progress at most, a queued one refused after 300 ms: the long poll's case below.
  s = await startWithMetrics({ MAX_REQUESTS_IN_FLIGHT: String(PLACES), MAX_QUEUE_WAIT_MS: "300" });
  admin = await adminCookie(s.app.url);
  const list = await trpcQuery(s.app.url, "referenceAdmin.drivers", { active: true, limit: 10 }, admin);
  drivers = (list.data as { items: Array<{ id: number; callSign: string }> }).items;
  expect(drivers.length).toBeGreaterThanOrEqual(4);
}, 300_000);

afterAll(async () => {
  closeAgents();
  await s?.app.stop();
  await s?.database.drop();
});

async function issueKey(driverId: number): Promise<string> {
  const r = await trpcMutation(s.app.url, "referenceAdmin.issueDriverKey", { driverId }, admin);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.data as { key: string }).key;
}

/** Well under the stream's keep-alive and the long poll's wait (15 s), so that only a wake-up by the change passes, with room for a loaded machine. */
const STREAM_WAKE_MS = 5_000;

const stream = (key: string) => openStream(s.app.url, "/driver-app/v1/offer/stream", { authorization: `Bearer ${key}` });

describe("driver app streams end when the driver's access changes", () => {
  it("the key replaced from the console: the open stream ends within a second, refused", async () => {
    const driver = drivers[0]!;
    const key = await issueKey(driver.id);
    const open = await stream(key);
    expect(open.status).toBe(200);
    // The stream's first turn (its current offer) comes once the server has read it: waited for, not assumed
    // after a fixed pause (300 ms were too short on a loaded machine, CI 2026-11-27).
    await until("the stream's first turn", () => /event: offer/.test(open.received()), STREAM_WAKE_MS);
    const fresh = await issueKey(driver.id);
    // Woken by the change, not by the next keep-alive (15 s): the bound is a third of it, from when the change was made.
    const started = Date.now();
    expect(await within(open.ended, STREAM_WAKE_MS), "the stream ends").toBe(true);
    expect(Date.now() - started).toBeLessThan(STREAM_WAKE_MS);
    expect(open.received()).toMatch(/event: error\ndata: .*"UNAUTHORIZED"/);
    // The old key opens nothing any more; the new one does.
    const again = await stream(key);
    expect(again.status).toBe(401);
    const works = await stream(fresh);
    expect(works.status).toBe(200);
    works.close();
  });

  it("the key revoked by the provisioning call: a waiting long poll answers 401 at once", async () => {
    const driver = drivers[1]!;
    const key = await issueKey(driver.id);
    const poll = send(s.app.url, { method: "GET", path: "/driver-app/v1/offer?wait=15", headers: { authorization: `Bearer ${key}` }, timeoutMs: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const revoked = await send(s.app.url, {
      method: "POST",
      path: "/driver-app/v1/keys/revoke",
      headers: { authorization: `Bearer ${provisioningKeyFor(template().appSecret)}`, "content-type": "application/json" },
      body: JSON.stringify({ call_sign: driver.callSign }),
    });
    expect(revoked.status, revoked.text).toBe(200);
    const started = Date.now();
    const reply = await poll;
    expect(reply.status, reply.text).toBe(401);
    // The poll waits up to 15 s: it answered because of the revocation.
    expect(Date.now() - started).toBeLessThan(STREAM_WAKE_MS);
  });

  it("the driver disabled: the open stream ends within a second", async () => {
    const driver = drivers[2]!;
    const key = await issueKey(driver.id);
    const open = await stream(key);
    expect(open.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const r = await trpcMutation(s.app.url, "referenceAdmin.setDriverActive", { driverId: driver.id, active: false }, admin);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await within(open.ended, STREAM_WAKE_MS), "the stream ends").toBe(true);
    expect(open.received()).toMatch(/"UNAUTHORIZED"/);
  });
});

describe("an announcement lost on the way", () => {
  // The stream is woken by the event bus; the instance's sweep (server/driver-app/stream-sweep.ts) reads every open
  // stream's driver in one statement each 15 s and wakes those whose state differs from what they sent. A row written
  // straight into the database announces nothing, as a relay that lost its event: only the sweep can bring it.
  // PostgreSQL only: PGlite's data folder is the running server's alone.
  it.runIf(TEST_DB === "postgres")(
    "a dispatcher's message written without its event reaches the open stream within the sweep's period",
    async () => {
      const driver = drivers.at(-1)!;
      const key = await issueKey(driver.id);
      const open = await stream(key);
      expect(open.status).toBe(200);
      await until("the stream's first turn", () => /event: offer/.test(open.received()), STREAM_WAKE_MS);
      const text = `unannounced ${Date.now()}`;
      await s.database.use((_prisma, query) => query(`INSERT INTO driver_message (driver_id, sender, text) VALUES ($1, 'DISPATCHER', $2)`, [driver.id, text]));
      // One sweep's period (15 s) and room for a loaded machine.
      await until("the message on the stream", () => open.received().includes(text), 25_000);
      expect(open.received()).toMatch(/event: message\ndata: .*unannounced/);
      open.close();
    },
    60_000,
  );
});

describe("a long poll holds no place while it waits", () => {
  // Found by the dispatch comparison's live arm: each phone on GET /offer?wait=N held one of the
  // instance's places for its whole wait, so sixty waiting drivers starved every other request.
  it("more drivers' long polls than the instance serves at once: every poll is taken, and other calls are served meanwhile", async () => {
    const key = await issueKey(drivers[3]!.id);
    const auth = { authorization: `Bearer ${key}` };
    const pending = new Set<number>();
    const polls = Array.from({ length: PLACES + 2 }, (_, i) => {
      pending.add(i);
      return send(s.app.url, { method: "GET", path: "/driver-app/v1/offer?wait=15", headers: auth, timeoutMs: 30_000 }).finally(() => pending.delete(i));
    });
    // Each poll waits 15 s for an offer that does not come (no rules on this server); meanwhile the driver's other calls.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    for (let i = 0; i < 3; i++) {
      const me = await send(s.app.url, { method: "GET", path: "/driver-app/v1/me", headers: auth, timeoutMs: 10_000 });
      expect(me.status, me.text).toBe(200);
    }
    // Served while every poll was still waiting (before the fix the last two polls and these calls were refused: 429).
    expect(pending.size).toBe(PLACES + 2);
    for (const reply of await Promise.all(polls)) expect(reply.status, reply.text).toBe(200);
  }, 60_000);
});
