// The fleet's phones, in a process of their own (`npm run bench -- --fleet`,
// docs/performance.md "A fleet of ten thousand"): every driver keeps its
// offer stream open (a socket of its own, as a phone has) and reports a
// position every period on its own schedule (a random offset), whatever the
// replies do; each latency is measured from the report's due moment (the
// wrk2 method of paced.ts), so a generator or a connection pool that falls
// behind counts. The generator measures its own lag (how late each send
// left, and its event loop's delay) so a slow generator is seen, not hidden.
//
//   tsx scripts/bench/fleet-load.ts <drivers.json>
// Commands arrive one JSON object a line on stdin; each answer is one line
// `FLEET_REPLY {...}` on stdout:
//   {"cmd":"streams","url":...}                 open every driver's offer stream
//   {"cmd":"paced","url":...,"kind":"app"|"limit","seconds":S,"periodMs":P}
//   {"cmd":"saturate","url":...,"kind":...,"seconds":S,"concurrency":C}
//   {"cmd":"close"}                              close the streams; the offers seen
// With "urls":[a, b] in place of "url" (--two-instances), driver i's phone
// talks to urls[i % 2] only, its stream and its positions alike: the fleet
// split between two instances, half each; the figures are also given per
// instance ("via" is that index).
import http from "node:http";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { monitorEventLoopDelay } from "node:perf_hooks";

export interface FleetDriver {
  id: number;
  key: string;
  lat: number;
  lon: number;
}

import { latencies, round1, type Latencies, type PacedResult } from "./fleet-stats";

export type { Latencies, PacedResult };

const drivers = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as FleetDriver[];
// Positions share a pool of keep-alive connections (a phone would hold one of
// its own; 10,000 more sockets would double the descriptors for no other
// effect on the server than the accept): the pool is sized so that it never
// limits the rate (its waits count in the latency from the due moment).
let agent = new http.Agent({ keepAlive: true, maxSockets: 400 });
const TIMEOUT_MS = 10_000;

function post(url: URL, path: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, host: url.hostname, port: url.port, method: "POST", path, headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error("timeout")));
    req.on("error", reject);
    req.end(body);
  });
}

/** Where each driver is: a slow random walk around its start (about 10 m a report). */
const where = drivers.map((d) => ({ lat: d.lat, lon: d.lon }));
function nextFix(i: number): { lat: number; lon: number; speed: number; bearing: number } {
  const w = where[i]!;
  w.lat += (Math.random() - 0.5) * 0.0002;
  w.lon += (Math.random() - 0.5) * 0.0003;
  return { lat: Math.round(w.lat * 1e6) / 1e6, lon: Math.round(w.lon * 1e6) / 1e6, speed: Math.round(Math.random() * 40), bearing: Math.round(Math.random() * 359) };
}

function sendPosition(url: URL, kind: "app" | "limit", i: number): Promise<{ status: number; text: string }> {
  const d = drivers[i]!;
  const fix = nextFix(i);
  if (kind === "app") return post(url, "/driver-app/v1/position", { authorization: `Bearer ${d.key}` }, JSON.stringify(fix));
  return post(url, "/position", {}, JSON.stringify({ id: d.id, ...fix }));
}

const okReply = (r: { status: number; text: string }) => r.status === 200 && r.text.includes('"state"');

/** The instance driver i's phone talks to. */
const via = (targets: readonly URL[], i: number) => i % targets.length;

/** Each driver every periodMs, at its own offset; latency from each report's due moment. */
async function paced(targets: readonly URL[], kind: "app" | "limit", seconds: number, periodMs: number): Promise<PacedResult> {
  const n = drivers.length;
  const offsets = drivers.map(() => Math.random() * periodMs);
  // All reports of the phase in due order: (offset + k * period).
  const rounds = Math.max(1, Math.floor((seconds * 1000) / periodMs));
  const order = offsets.map((o, i) => ({ o, i })).sort((a, b) => a.o - b.o);
  const total = n * rounds;
  const lat: number[] = [];
  const lag: number[] = [];
  const result = { ok: 0, bad: 0, errors: 0, firstBad: undefined as string | undefined };
  // Per instance when the fleet is split (the answered reports and their latencies).
  const each = targets.map(() => ({ ok: 0, failed: 0, lat: [] as number[] }));
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const start = performance.now() + 50;
  let lastEnd = start;
  let issued = 0;
  let finished = 0;
  return new Promise((resolve) => {
    const done = () => {
      loop.disable();
      const secondsRun = (lastEnd - start) / 1000;
      resolve({
        kind,
        rate: Math.round((n * 1000) / periodMs),
        seconds: round1(secondsRun),
        sent: total,
        ...result,
        rps: Math.round(result.ok / secondsRun),
        latency: latencies(lat),
        sendLag: latencies(lag),
        loopDelay: { p50: round1(loop.percentile(50) / 1e6), p99: round1(loop.percentile(99) / 1e6), max: round1(loop.max / 1e6) },
        ...(targets.length > 1 ? { perInstance: each.map((e) => ({ rps: Math.round(e.ok / secondsRun), failed: e.failed, latency: latencies(e.lat) })) } : {}),
      });
    };
    // A report still unanswered 10 s after the phase's last due moment is
    // counted as timed out (it may still wait in the pool, where no socket
    // timeout runs): the phase ends then, whatever the server does.
    const endBy = start + rounds * periodMs + TIMEOUT_MS;
    const cutoff = setTimeout(() => {
      if (finished >= total) return;
      const left = total - finished;
      result.errors += left;
      result.firstBad ??= "timeout: not answered by the phase's end + 10 s";
      for (let k = 0; k < left; k++) lat.push(endBy - start);
      finished = total;
      lastEnd = Math.max(lastEnd, performance.now());
      agent.destroy();
      agent = new http.Agent({ keepAlive: true, maxSockets: 400 });
      done();
    }, Math.max(0, endBy - performance.now()));
    const tick = () => {
      const now = performance.now();
      while (issued < total) {
        const r = Math.floor(issued / n);
        const slot = order[issued % n]!;
        const due = start + r * periodMs + slot.o;
        if (due > now) break;
        issued++;
        lag.push(performance.now() - due);
        const mine = each[via(targets, slot.i)]!;
        sendPosition(targets[via(targets, slot.i)]!, kind, slot.i)
          .then((reply) => {
            if (finished >= total) return;
            if (okReply(reply)) {
              result.ok++;
              mine.ok++;
            } else {
              mine.failed++;
              result.bad++;
              result.firstBad ??= `${reply.status} ${reply.text.slice(0, 200)}`;
            }
          })
          .catch((error: unknown) => {
            if (finished >= total) return;
            mine.failed++;
            result.errors++;
            result.firstBad ??= error instanceof Error ? error.message : String(error);
          })
          .finally(() => {
            if (finished >= total) return;
            const end = performance.now();
            lat.push(end - due);
            mine.lat.push(end - due);
            lastEnd = Math.max(lastEnd, end);
            if (++finished === total) {
              clearTimeout(cutoff);
              done();
            }
          });
      }
      if (issued < total) {
        const r = Math.floor(issued / n);
        const next = start + r * periodMs + order[issued % n]!.o;
        setTimeout(tick, Math.max(0, Math.min(5, next - performance.now())));
      }
    };
    setTimeout(tick, 50);
  });
}

/** As fast as the server answers: `concurrency` loops, each sending the next driver's position when its last reply came. */
async function saturate(targets: readonly URL[], kind: "app" | "limit", seconds: number, concurrency: number) {
  const until = performance.now() + seconds * 1000;
  let next = 0;
  let ok = 0;
  let bad = 0;
  const lat: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const i = next++ % drivers.length;
        const s = performance.now();
        try {
          if (okReply(await sendPosition(targets[via(targets, i)]!, kind, i))) ok++;
          else bad++;
        } catch {
          bad++;
        }
        lat.push(performance.now() - s);
      }
    }),
  );
  const secondsRun = (performance.now() - t0) / 1000;
  return { kind, concurrency, seconds: round1(secondsRun), ok, bad, rps: Math.round(ok / secondsRun), latency: latencies(lat) };
}

// ------------------------------------------------------------------ the offer streams

interface Stream {
  req: http.ClientRequest;
  open: boolean;
}
const streams: Stream[] = [];
/** via: the instance whose stream carried it (the index in "urls"; 0 with one instance). */
const offers: Array<{ offerId: number; driverId: number; at: number; via: number }> = [];
let streamErrors = 0;
let firstStreamError: string | undefined;
/** The stream errors by what ended them (a status, a socket error, a stream ended before its first byte, refusals past the retries). */
const streamErrorKinds: Record<string, number> = {};
function countStreamError(kind: string): void {
  streamErrors++;
  streamErrorKinds[kind] = (streamErrorKinds[kind] ?? 0) + 1;
}
let refusals = 0;

/** Opens the driver's stream; a refusal (429, the server shedding load) is tried again after its Retry-After, as EventSource does. */
async function openStream(targets: readonly URL[], i: number): Promise<boolean> {
  for (let attempt = 0; attempt < 30; attempt++) {
    const outcome = await openStreamOnce(targets, i);
    if (outcome !== "retry") return outcome;
    streamRetries++;
    await new Promise((r) => setTimeout(r, 1_000 + Math.random() * 1_000));
  }
  countStreamError("refused 30 times");
  return false;
}

let streamRetries = 0;
/** Streams the server closed after their time and the phone opened again. */
let streamReconnects = 0;

function openStreamOnce(targets: readonly URL[], i: number): Promise<boolean | "retry"> {
  const d = drivers[i]!;
  const url = targets[via(targets, i)]!;
  return new Promise((resolve) => {
    // A socket of its own, as each phone has.
    const req = http.request({ agent: false, host: url.hostname, port: url.port, method: "GET", path: "/driver-app/v1/offer/stream", headers: { authorization: `Bearer ${d.key}`, accept: "text/event-stream" } });
    const stream: Stream = { req, open: false };
    let settled = false;
    // Once a stream: an error and an end of the same stream open one stream again, not two.
    let reopened = false;
    const reopen = () => {
      if (reopened) return;
      reopened = true;
      streamReconnects++;
      setTimeout(() => void openStream(targets, i), 1_000 + Math.random() * 2_000);
    };
    const settle = (ok: boolean | "retry", why?: string) => {
      if (ok === true) streams.push(stream);
      if (ok === false) {
        countStreamError(why ?? "unknown");
        firstStreamError ??= why;
      }
      if (settled) return;
      settled = true;
      resolve(ok);
    };
    req.setTimeout(0);
    req.on("error", (e) => {
      const wasOpen = stream.open;
      stream.open = false;
      if (closing) return;
      // A socket error (a reset while the server is loaded) ends the stream; the phone opens it again,
      // as EventSource does after a network error. Counted as an error either way.
      countStreamError(e.message);
      firstStreamError ??= e.message;
      if (wasOpen || settled) return reopen();
      settle("retry");
    });
    req.on("response", (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return settle(res.statusCode === 429 ? "retry" : false, `status ${res.statusCode}`);
      }
      let buffer = "";
      let event = "message";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        if (!stream.open) {
          stream.open = true;
          settle(true);
        }
        let nl: number;
        while ((nl = buffer.indexOf("\n")) !== -1) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (line.startsWith("event: ")) event = line.slice(7);
          else if (line.startsWith("data: ") && event === "offer") {
            const at = Date.now();
            const data = JSON.parse(line.slice(6)) as { offer: { offer_id: number; order: { uuid: string } } | null };
            if (data.offer) {
              offers.push({ offerId: data.offer.offer_id, driverId: d.id, at, via: via(targets, i) });
              // The driver reads it and refuses after 2–6 s, so the order stays free for a later round (the city keeps its 300 free orders).
              const uuid = data.offer.order.uuid;
              setTimeout(() => {
                post(url, "/driver-app/v1/offer/refuse", { authorization: `Bearer ${d.key}` }, JSON.stringify({ uuid, reason: "bench" }))
                  .then(() => refusals++)
                  .catch(() => undefined);
              }, 2_000 + Math.random() * 4_000);
            }
          } else if (line === "") event = "message";
        }
      });
      res.on("end", () => {
        const wasOpen = stream.open;
        stream.open = false;
        if (closing) return;
        // The server closes a stream after STREAM_SECONDS by design: the phone opens it again, as EventSource does (3 s).
        if (wasOpen) return reopen();
        settle(false, "stream ended");
      });
    });
    req.end();
  });
}

let closing = false;

async function openStreams(targets: readonly URL[]) {
  const t0 = performance.now();
  let opened = 0;
  const openedVia = targets.map(() => 0);
  // A few hundred at a time: phones come on shift over minutes, not in one instant.
  const BATCH = 100;
  for (let from = 0; from < drivers.length; from += BATCH) {
    const got = await Promise.all(Array.from({ length: Math.min(BATCH, drivers.length - from) }, (_, k) => openStream(targets, from + k)));
    opened += got.filter(Boolean).length;
    got.forEach((ok, k) => ok && openedVia[via(targets, from + k)]!++);
  }
  return { opened, openedVia, failed: drivers.length - opened, retries: streamRetries, seconds: round1((performance.now() - t0) / 1000), firstError: firstStreamError };
}

function reply(value: unknown): void {
  process.stdout.write(`FLEET_REPLY ${JSON.stringify(value)}\n`);
}

const lines = createInterface({ input: process.stdin });
let queue = Promise.resolve();
lines.on("line", (line) => {
  queue = queue.then(async () => {
    const c = JSON.parse(line) as { cmd: string; url?: string; urls?: string[]; kind?: "app" | "limit"; seconds?: number; periodMs?: number; concurrency?: number };
    const targets = (c.urls ?? [c.url ?? "http://127.0.0.1"]).map((u) => new URL(u));
    if (c.cmd === "streams") reply(await openStreams(targets));
    else if (c.cmd === "paced") reply(await paced(targets, c.kind!, c.seconds!, c.periodMs!));
    else if (c.cmd === "saturate") reply(await saturate(targets, c.kind!, c.seconds!, c.concurrency!));
    else if (c.cmd === "status") reply({ open: streams.filter((s) => s.open).length, offers: offers.length, streamErrors, refusals, reconnects: streamReconnects });
    else if (c.cmd === "close") {
      closing = true;
      const open = streams.filter((s) => s.open).length;
      for (const s of streams) s.req.destroy();
      reply({ openAtClose: open, offers, streamErrors, streamErrorKinds, firstStreamError, refusals });
    } else if (c.cmd === "exit") {
      agent.destroy();
      process.exit(0);
    }
  });
});
