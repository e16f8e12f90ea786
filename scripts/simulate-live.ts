// `npm run simulate -- --compare --live`: the live arm of the comparison.
// For each seed: the in-process model's day (server/simulator/compare) under
// the production default, and the same day played against a started server
// (the production build on its own new database, PGlite or with TEST_DB=postgres
// a PostgreSQL database at 127.0.0.1:5432) over HTTP by the clients of
// server/simulator/live, with silent drivers on shift. The offers come from
// the server's own record (the console's order card, dispatch.order). Writes
// docs/dispatch/dispatch-live.{json,md} and the table between the
// dispatch-live markers of docs/dispatch.md.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startServer, type StartedServer, type TestDb } from "../tests/support/server";
import { signIn, trpcMutation, trpcQuery, type TrpcReply } from "../tests/reliability/support/console";
import { superjson } from "../shared/board-wire";
import { provisioningKeyFor } from "../server/driver-app/keys";
import { demoCityRoads } from "../server/simulator/compare/roads";
import { planDay } from "../server/simulator/compare/city";
import { CITY, defaultPolicy } from "../server/simulator/compare/run";
import { playDay, WORLD_DEFAULTS, type DayPlan } from "../server/simulator/compare/world";
import { estimate, type Estimate } from "../server/simulator/compare/metrics";
import { DriverPhone, PassengerApi } from "../server/simulator/live/clients";
import { playLiveDay, type LiveDayResult } from "../server/simulator/live/day";

export interface LiveArmOptions {
  seeds: number[];
  speedUp: number;
  minutes: number;
  drivers: number;
  perMinute: number;
  silent: number;
  db: TestDb;
  parallel: number;
  out?: string;
  log: (line: string) => void;
}

/** One day's figures, the same for both arms. */
export interface ArmFigures {
  orders: number;
  meanWaitAll: number;
  meanWaitServed: number;
  lostShare: number;
  cancelledShare: number;
  offersPerOrder: number;
  timeoutShare: number;
}

export interface LiveSeed {
  seed: number;
  model: ArmFigures;
  live: ArmFigures;
  offersToSilent: number;
  offers: number;
  radioTakes: number;
  awayAtEnd: number;
  unknown: number;
  notPlaced: number;
  lag: LiveDayResult["lag"];
  placed: LiveDayResult["placed"];
  callMs: LiveDayResult["callMs"];
  wallSeconds: number;
  simulatedSeconds: number;
  failedCalls: Record<string, number>;
  calls: number;
}

export const LIVE_LOOK_SECONDS = 20;

const APP_SECRET = "live-arm-secret-live-arm-secret-000001";

function decoded<T>(reply: TrpcReply): T {
  if (reply.error) throw new Error(`console: ${JSON.stringify(reply.error)}`);
  const wire = (reply.body as { result?: { data?: Parameters<typeof superjson.deserialize>[0] } }).result?.data;
  return (wire ? superjson.deserialize(wire) : reply.data) as T;
}

const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);

/** The server's time settings scaled by the speed-up (it runs on the wall clock; the day runs speedUp times faster). */
export function scaledSettings(speedUp: number) {
  const acceptSeconds = Math.max(5, Math.round(WORLD_DEFAULTS.acceptSeconds / speedUp));
  return {
    env: {
      DISPATCH_TICK_MS: String(Math.max(50, Math.round(1000 / speedUp))),
      DISPATCH_POSITION_MAX_AGE_SECONDS: String(Math.max(1, Math.round(120 / speedUp))),
      DISPATCH_APP_SILENT_SECONDS: String(Math.max(1, Math.round(90 / speedUp))),
    },
    rule: {
      regionId: null,
      mode: "AUTO",
      strategy: "BATCHED",
      acceptSeconds,
      attempts: WORLD_DEFAULTS.attempts,
      radiusKm: WORLD_DEFAULTS.radiusKm,
      freeLongMinutes: 60,
      batchSeconds: Math.max(1, Math.round(WORLD_DEFAULTS.batchSeconds / speedUp)),
      // Seconds of arrival per minute of a driver's idle time: the idle minutes pass speedUp times slower on the server's clock.
      fairnessWeight: 2 * speedUp,
      chainMinutes: WORLD_DEFAULTS.chainSeconds / 60,
      minBalance: -100_000_000,
      advanceLeadMinutes: 60,
      confirmLeadMinutes: 20,
    },
    /** The deadline the drivers actually had, in simulated seconds (rounded to whole real seconds). */
    acceptSimSeconds: acceptSeconds * speedUp,
  };
}

/** One seed of the live arm (exported for its integration test, which gives its own small day and puts the silent drivers at the pickups). */
export async function oneSeed(
  seed: number,
  o: LiveArmOptions,
  // `database`: a copy of an already seeded demo city to start on (the tests' template), instead of seeding one.
  custom: { plan?: DayPlan; silentPlaces?: number[]; database?: { env: Record<string, string>; seeded: { apiKey: string; adminEmail: string; adminPassword: string } } } = {},
): Promise<LiveSeed> {
  const roads = demoCityRoads({ sideMetres: CITY.sideMetres, placeCount: 500, hour: 12 });
  const plan = custom.plan ?? planDay(seed, roads, CITY, { drivers: o.drivers, perMinute: o.perMinute, minutes: o.minutes });
  const day = playDay(plan, roads, defaultPolicy(), seed);
  const waitsServed = day.waitsServed;
  const model: ArmFigures = {
    orders: day.orders,
    meanWaitAll: mean(day.waitsAll),
    meanWaitServed: mean(waitsServed),
    lostShare: day.lost / Math.max(1, day.orders),
    cancelledShare: day.cancelled / Math.max(1, day.orders),
    offersPerOrder: day.offers / Math.max(1, day.orders),
    timeoutShare: day.timeouts / Math.max(1, day.offers),
  };
  const log = (line: string) => o.log(`seed ${seed}: ${line}`);
  const scaled = scaledSettings(o.speedUp);
  log(`starting a server (${o.db}) with the demo city`);
  const server: StartedServer = await startServer({
    db: o.db,
    ...(custom.database ? { seeded: { ...custom.database.seeded, appSecret: APP_SECRET } } : { seedDemo: true }),
    startTimeoutMs: 600_000,
    env: { ...custom.database?.env, APP_SECRET, ...scaled.env, DISPATCH_AWAY_AFTER_TIMEOUTS: "3" },
  });
  try {
    const session = await signIn(server.url, server.adminEmail, server.adminPassword);
    const cookie = session.cookie;
    const api = new PassengerApi(server.url, server.apiKey);
    const provisioning = new DriverPhone(server.url, provisioningKeyFor(APP_SECRET));
    // The seed's open orders would be dispatched too: the day's orders are the only ones.
    for (const group of ["free", "assigned", "preorders", "moderation"]) {
      const board = decoded<{ items: Array<{ uuid: string }> }>(await trpcQuery(server.url, "orders.board", { filter: { group }, limit: 500 }, cookie));
      for (const row of board.items) await api.cancel(row.uuid, "a quiet city for the live arm").catch(() => undefined);
    }
    const listed = (await api.get("drivers", { city_id: 1 })).drivers as Array<{ code: string }>;
    const callSigns = listed.map((d) => d.code).sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
    // Every driver off shift with nothing in hand (an order already aboard is completed).
    const ready: string[] = [];
    let serviceIds: number[] | undefined;
    const quieten = async (callSign: string): Promise<number[] | null> => {
      const phone = new DriverPhone(server.url, await provisioning.issue(callSign));
      const mine = ((await phone.get("orders")).orders ?? []) as Array<{ uuid: string; state: string }>;
      for (const order of mine) {
        await api.cancel(order.uuid, "a quiet city for the live arm").catch(async () => {
          await phone.post("orders/status", { uuid: order.uuid, status: "IN_PROCESS" }).catch(() => undefined);
          await phone.post("orders/complete", { uuid: order.uuid }).catch(() => undefined);
        });
      }
      const ended = await phone.post("shift/end").then(() => true, () => false);
      const me = (await phone.get("me")).driver as { service_ids: number[] };
      return ended ? me.service_ids : null;
    };
    // Eight drivers at a time (one by one it took most of a short run); the list's order is kept.
    for (let at = 0; at < callSigns.length; at += 8) {
      const batch = callSigns.slice(at, at + 8);
      const done = await Promise.all(batch.map(quieten));
      batch.forEach((callSign, i) => {
        const services = done[i];
        if (!services) return;
        serviceIds = serviceIds ? serviceIds.filter((id) => services.includes(id)) : [...services];
        ready.push(callSign);
      });
    }
    const serviceId = serviceIds?.[0];
    if (serviceId === undefined || ready.length < o.drivers + o.silent) throw new Error(`the demo city has ${ready.length} drivers of one service, ${o.drivers + o.silent} needed`);
    await trpcMutation(server.url, "dispatch.saveSettings", { serviceId, ...scaled.rule }, cookie).then(decoded);
    const live = await playLiveDay({
      baseUrl: server.url,
      apiKey: server.apiKey,
      provisioningKey: provisioningKeyFor(APP_SECRET),
      serviceId,
      seed,
      plan,
      roads,
      speedUp: o.speedUp,
      callSigns: ready.slice(0, o.drivers),
      silentCallSigns: ready.slice(o.drivers, o.drivers + o.silent),
      silentPlaces: custom.silentPlaces,
      warmUpSeconds: Math.max(Number(scaled.env.DISPATCH_APP_SILENT_SECONDS), Number(scaled.env.DISPATCH_POSITION_MAX_AGE_SECONDS)) + 3,
      // The model's drivers look at the radio every 8 s; the live ones every 20 s: 60 phones polling GET /offers
      // every 2 real seconds at ×4 were most of the load on this shared machine, and few orders reach the radio at this load.
      lookSeconds: LIVE_LOOK_SECONDS,
      radiusKm: WORLD_DEFAULTS.radiusKm,
      drainSeconds: 45 * 60,
      log,
    });
    // Every offer of the day's orders, from the server's own record.
    const silentSet = new Set(ready.slice(o.drivers, o.drivers + o.silent));
    const board = decoded<{ items: Array<{ id: number; uuid: string }> }>(await trpcQuery(server.url, "orders.board", { filter: { group: "all" }, limit: 500 }, cookie));
    const idOf = new Map(board.items.map((r) => [r.uuid, r.id]));
    let offers = 0;
    let timeouts = 0;
    let offersToSilent = 0;
    for (const order of live.orders) {
      const id = idOf.get(order.uuid);
      if (id === undefined) continue;
      const card = decoded<{ attempts: Array<{ callSign: string; state: string }> }>(await trpcQuery(server.url, "dispatch.order", { orderId: id }, cookie));
      offers += card.attempts.length;
      timeouts += card.attempts.filter((a) => a.state === "TIMED_OUT").length;
      offersToSilent += card.attempts.filter((a) => silentSet.has(a.callSign)).length;
    }
    const all = live.orders;
    const served = all.filter((r) => r.outcome === "served");
    const liveFigures: ArmFigures = {
      orders: all.length,
      meanWaitAll: mean(all.map((r) => r.wait)),
      meanWaitServed: mean(served.map((r) => r.wait)),
      lostShare: all.filter((r) => r.outcome === "lost" || r.outcome === "unknown").length / Math.max(1, all.length),
      cancelledShare: all.filter((r) => r.outcome === "cancelled").length / Math.max(1, all.length),
      offersPerOrder: offers / Math.max(1, all.length),
      timeoutShare: timeouts / Math.max(1, offers),
    };
    log(`done: live wait ${(liveFigures.meanWaitAll / 60).toFixed(2)} min, model ${(model.meanWaitAll / 60).toFixed(2)} min; offers to silent drivers ${offersToSilent}; lag mean ${live.lag.meanSeconds.toFixed(1)} s, max ${live.lag.maxSeconds.toFixed(1)} s`);
    return {
      seed,
      model,
      live: liveFigures,
      offersToSilent,
      offers,
      radioTakes: all.filter((r) => r.viaRadio).length,
      awayAtEnd: live.awayAtEnd.length,
      unknown: all.filter((r) => r.outcome === "unknown").length,
      notPlaced: live.notPlaced,
      lag: live.lag,
      placed: live.placed,
      callMs: live.callMs,
      wallSeconds: live.wallSeconds,
      simulatedSeconds: live.simulatedSeconds,
      failedCalls: live.failedCalls,
      calls: live.calls,
    };
  } finally {
    await server.stop();
  }
}

export interface LiveReport {
  generatedBy: string;
  seeds: number[];
  load: { drivers: number; silent: number; perMinute: number; minutes: number };
  speedUp: number;
  db: TestDb;
  server: ReturnType<typeof scaledSettings>;
  perSeed: LiveSeed[];
  /** Per metric: the model's and the live arm's means with 95 % intervals over the seeds, and the paired difference live − model. */
  metrics: Record<keyof ArmFigures, { model: Estimate; live: Estimate; diff: Estimate }>;
  offersToSilent: number;
}

const METRICS: Array<keyof ArmFigures> = ["meanWaitAll", "meanWaitServed", "lostShare", "cancelledShare", "offersPerOrder", "timeoutShare", "orders"];

export async function liveArm(o: LiveArmOptions): Promise<LiveReport> {
  const perSeed: LiveSeed[] = [];
  const queue = [...o.seeds];
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(o.parallel, o.seeds.length)) }, async () => {
      for (let seed = queue.shift(); seed !== undefined; seed = queue.shift()) perSeed.push(await oneSeed(seed, o));
    }),
  );
  perSeed.sort((a, b) => a.seed - b.seed);
  const metrics = Object.fromEntries(
    METRICS.map((m) => [
      m,
      {
        model: estimate(perSeed.map((s) => s.model[m])),
        live: estimate(perSeed.map((s) => s.live[m])),
        diff: estimate(perSeed.map((s) => s.live[m] - s.model[m])),
      },
    ]),
  ) as LiveReport["metrics"];
  return {
    generatedBy: "npm run simulate -- --compare --live",
    seeds: o.seeds,
    load: { drivers: o.drivers, silent: o.silent, perMinute: o.perMinute, minutes: o.minutes },
    speedUp: o.speedUp,
    db: o.db,
    server: scaledSettings(o.speedUp),
    perSeed,
    metrics,
    offersToSilent: perSeed.reduce((a, s) => a + s.offersToSilent, 0),
  };
}

// ------------------------------------------------------------ the report

const LABELS: Record<keyof ArmFigures, { name: string; unit: "min" | "%" | "n" }> = {
  meanWaitAll: { name: "mean wait, all orders (lost: the patience)", unit: "min" },
  meanWaitServed: { name: "mean wait, served orders", unit: "min" },
  lostShare: { name: "lost (no driver within the patience)", unit: "%" },
  cancelledShare: { name: "cancelled after a long assigned wait", unit: "%" },
  offersPerOrder: { name: "offers per order", unit: "n" },
  timeoutShare: { name: "offers timed out", unit: "%" },
  orders: { name: "orders", unit: "n" },
};

function show(e: Estimate, unit: "min" | "%" | "n", seeds: number): string {
  const k = unit === "min" ? 1 / 60 : unit === "%" ? 100 : 1;
  const d = unit === "n" ? 2 : 1;
  const v = (e.mean * k).toFixed(d);
  const h = seeds > 1 ? ` ± ${(e.half * k).toFixed(d)}` : "";
  return `${v}${h}${unit === "min" ? " min" : unit === "%" ? " %" : ""}`;
}

export function liveTable(r: LiveReport): string {
  const n = r.seeds.length;
  const lagMean = mean(r.perSeed.map((s) => s.lag.meanSeconds));
  const lagMax = Math.max(...r.perSeed.map((s) => s.lag.maxSeconds));
  const wall = mean(r.perSeed.map((s) => s.wallSeconds));
  const placedMean = mean(r.perSeed.map((s) => s.placed.meanSeconds));
  const placedMax = Math.max(...r.perSeed.map((s) => s.placed.maxSeconds));
  const callP95 = Math.max(...r.perSeed.map((s) => s.callMs.p95));
  const lines = [
    `${n} seed${n > 1 ? "s" : ""} (${r.seeds.join(", ")}), load "normal" (${r.load.drivers} drivers, ${r.load.perMinute} orders/min, ${r.load.minutes} simulated minutes of orders) plus ${r.load.silent} silent drivers; the live arm on ${r.db === "postgres" ? "PostgreSQL" : "PGlite"} at ×${r.speedUp}${n > 1 ? "; 95 % confidence intervals over the seeds, the difference paired by seed" : ""}.`,
    "",
    "| metric | in-process model (default) | live server | live − model |",
    "|---|---:|---:|---:|",
    ...METRICS.map((m) => `| ${LABELS[m].name} | ${show(r.metrics[m].model, LABELS[m].unit, n)} | ${show(r.metrics[m].live, LABELS[m].unit, n)} | ${show(r.metrics[m].diff, LABELS[m].unit, n)} |`),
    `| offers to silent drivers | — | ${r.offersToSilent} of ${r.perSeed.reduce((a, s) => a + s.offers, 0)} | |`,
    "",
    `Keeping up: the clients' scheduled actions ran on average ${lagMean.toFixed(1)} simulated seconds late (worst ${lagMax.toFixed(1)} s); an order was in the server's hands on average ${placedMean.toFixed(1)} simulated seconds after its planned moment (worst ${placedMax.toFixed(1)} s; its wait counts from the planned moment); the 95th percentile of a call's time ${Math.round(callP95)} ms real (the offer streams not counted); a seed's day took ${(wall / 60).toFixed(1)} real minutes. Orders taken from the radio: ${r.perSeed.map((s) => s.radioTakes).join(", ")}; drivers set away at the end: ${r.perSeed.map((s) => s.awayAtEnd).join(", ")}; orders without an outcome: ${r.perSeed.reduce((a, s) => a + s.unknown, 0)}; not placed: ${r.perSeed.reduce((a, s) => a + s.notPlaced, 0)}.`,
  ];
  return lines.join("\n");
}

export function liveMarkdown(r: LiveReport): string {
  const rows = r.perSeed.map(
    (s) =>
      `| ${s.seed} | ${s.model.orders} | ${(s.model.meanWaitAll / 60).toFixed(2)} | ${(s.live.meanWaitAll / 60).toFixed(2)} | ${(s.model.meanWaitServed / 60).toFixed(2)} | ${(s.live.meanWaitServed / 60).toFixed(2)} | ${(s.model.lostShare * 100).toFixed(1)} | ${(s.live.lostShare * 100).toFixed(1)} | ${s.model.offersPerOrder.toFixed(2)} | ${s.live.offersPerOrder.toFixed(2)} | ${(s.model.timeoutShare * 100).toFixed(1)} | ${(s.live.timeoutShare * 100).toFixed(1)} | ${s.offersToSilent} | ${s.lag.meanSeconds.toFixed(1)} / ${s.lag.maxSeconds.toFixed(1)} | ${s.placed.meanSeconds.toFixed(1)} / ${s.placed.maxSeconds.toFixed(1)} | ${JSON.stringify(s.failedCalls)} |`,
  );
  return [
    "# Dispatch: the live arm against the in-process model",
    "",
    `Generated by \`${r.generatedBy}\`; the method is in [../dispatch.md](../dispatch.md#the-live-arm). Do not edit.`,
    "",
    liveTable(r),
    "",
    `Server settings (scaled by ×${r.speedUp}): ${JSON.stringify(r.server.rule)}; environment ${JSON.stringify(r.server.env)}; the deadline the drivers had: ${r.server.acceptSimSeconds} simulated seconds.`,
    "",
    "## Per seed",
    "",
    "| seed | orders | wait all, model | wait all, live | served wait, model | served wait, live | lost % model | lost % live | offers/order model | live | timed out % model | live | offers to silent | lag mean / max (s) | placed late mean / max (s) | failed calls |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

const DOC = "docs/dispatch.md";
const BEGIN = "<!-- dispatch-live:begin (generated by npm run simulate -- --compare --live; do not edit) -->";
const END = "<!-- dispatch-live:end -->";

export function writeLiveReport(r: LiveReport, out?: string): void {
  const dir = path.resolve(out ?? "docs/dispatch");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "dispatch-live.json"), JSON.stringify(r, null, 2) + "\n");
  writeFileSync(path.join(dir, "dispatch-live.md"), liveMarkdown(r));
  if (out !== undefined) return;
  const doc = readFileSync(DOC, "utf8");
  const a = doc.indexOf(BEGIN);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${DOC}: the markers of the live arm's table are missing`);
  writeFileSync(DOC, doc.slice(0, a + BEGIN.length) + "\n\n" + liveTable(r) + "\n\n" + doc.slice(b));
}
