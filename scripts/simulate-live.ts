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
import { demoCityRoads, type CityRoads } from "../server/simulator/compare/roads";
import { planDay } from "../server/simulator/compare/city";
import { CITY, dispatchOnlyPolicy, LOADS } from "../server/simulator/compare/run";
import { playDay, WORLD_DEFAULTS, type DayPlan, type WorldSettings } from "../server/simulator/compare/world";
import { estimate, type Estimate } from "../server/simulator/compare/metrics";
import { DriverPhone, PassengerApi } from "../server/simulator/live/clients";
import { playLiveDay, type LiveDayResult } from "../server/simulator/live/day";

export interface LiveArmOptions {
  seeds: number[];
  speedUp: number;
  minutes: number;
  /** The load's name (LOADS) and the share of its drivers and orders played (the same city, fewer of both). */
  load: string;
  scale: number;
  drivers: number;
  perMinute: number;
  silent: number;
  /** The drivers of both arms look at the radio this often (simulated s). */
  lookSeconds: number;
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
  /** Offers to any driver the day does not play (the silent ones included). */
  offersToOthers: number;
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
  /** Whether the server kept up (VALIDITY); the reasons when it did not. */
  valid: boolean;
  invalidBecause: string[];
}

/**
 * When a seed's live figures measure the product and not the machine's lag:
 * every order in the server's hands within a few simulated seconds of its
 * moment (95th percentile), the clients' scheduled actions on time as well,
 * and a call's real time (95th percentile) a small fraction of the offer's
 * real deadline (a driver's 3–12 s answer must not be eaten by the network).
 */
export const VALIDITY = { placedP95Seconds: 5, lagP95Seconds: 5, callP95ShareOfDeadline: 0.1 };

export function validity(s: Pick<LiveSeed, "placed" | "lag" | "callMs" | "notPlaced" | "unknown">, acceptRealSeconds: number): string[] {
  const why: string[] = [];
  if (s.placed.p95Seconds > VALIDITY.placedP95Seconds) why.push(`orders placed ${s.placed.p95Seconds.toFixed(1)} s late (p95) > ${VALIDITY.placedP95Seconds} s`);
  if (s.lag.p95Seconds > VALIDITY.lagP95Seconds) why.push(`actions ${s.lag.p95Seconds.toFixed(1)} s late (p95) > ${VALIDITY.lagP95Seconds} s`);
  const callLimit = acceptRealSeconds * 1000 * VALIDITY.callP95ShareOfDeadline;
  if (s.callMs.p95 > callLimit) why.push(`calls p95 ${Math.round(s.callMs.p95)} ms > ${Math.round(callLimit)} ms`);
  if (s.notPlaced > 0) why.push(`${s.notPlaced} orders not placed`);
  if (s.unknown > 0) why.push(`${s.unknown} orders without an outcome`);
  return why;
}

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

/** The model's settings for the live arm's scenario: the deadline and batch period the server really has (whole real seconds × the speed-up) and the live drivers' radio look. */
export function modelSettings(o: Pick<LiveArmOptions, "speedUp" | "lookSeconds">): WorldSettings {
  const scaled = scaledSettings(o.speedUp);
  return { ...WORLD_DEFAULTS, acceptSeconds: scaled.acceptSimSeconds, batchSeconds: scaled.rule.batchSeconds * o.speedUp, lookSeconds: o.lookSeconds };
}

/** The live arm's city: the comparison's square of the demo city at noon. */
function liveCityRoads(): CityRoads {
  return demoCityRoads({ sideMetres: CITY.sideMetres, placeCount: 500, hour: 12 });
}

/**
 * The in-process model's figures of one seeded day under the production default's dispatch, on the live arm's
 * settings: without hints, as the live arm's phones do not ask for them.
 */
function modelFigures(plan: DayPlan, roads: CityRoads, seed: number, settings: WorldSettings): ArmFigures {
  const day = playDay(plan, roads, dispatchOnlyPolicy(), seed, settings);
  return {
    orders: day.orders,
    meanWaitAll: mean(day.waitsAll),
    meanWaitServed: mean(day.waitsServed),
    lostShare: day.lost / Math.max(1, day.orders),
    cancelledShare: day.cancelled / Math.max(1, day.orders),
    offersPerOrder: day.offers / Math.max(1, day.orders),
    timeoutShare: day.timeouts / Math.max(1, day.offers),
  };
}

/**
 * The model side of kept live runs computed again with today's model, the
 * live side as it was run: a run's report holds everything the model's day
 * needs (the seed, the scaled load, the model's settings), so a change of
 * the model does not need the 27 real minutes a seed's live day takes.
 */
export function remodelLiveReports(f: LiveReports): LiveReports {
  const roads = liveCityRoads();
  const loads = f.loads.map((r) => {
    const perSeed = r.perSeed.map((s) => {
      const plan = planDay(s.seed, roads, CITY, { drivers: r.load.drivers, perMinute: r.load.perMinute, minutes: r.load.minutes });
      return { ...s, model: modelFigures(plan, roads, s.seed, r.model) };
    });
    return summarise(perSeed, { load: r.load, speedUp: r.speedUp, lookSeconds: r.lookSeconds, db: r.db, parallel: r.parallel, server: r.server, model: r.model });
  });
  return { ...f, loads };
}

/** One seed of the live arm (exported for its integration test, which gives its own small day and puts the silent drivers at the pickups). */
export async function oneSeed(
  seed: number,
  o: LiveArmOptions,
  // `database`: a copy of an already seeded demo city to start on (the tests' template), instead of seeding one.
  // `playedOnly`: only the drivers the day plays are taken off shift first; the demo's other drivers stay on shift with no app (silent too).
  custom: { plan?: DayPlan; silentPlaces?: number[]; playedOnly?: boolean; database?: { env: Record<string, string>; seeded: { apiKey: string; adminEmail: string; adminPassword: string } } } = {},
): Promise<LiveSeed> {
  const roads = liveCityRoads();
  const plan = custom.plan ?? planDay(seed, roads, CITY, { drivers: o.drivers, perMinute: o.perMinute, minutes: o.minutes });
  const scaled = scaledSettings(o.speedUp);
  // The model on exactly the live arm's settings: its deadline and batch period as the server has them (whole real seconds), its radio look.
  const model = modelFigures(plan, roads, seed, modelSettings(o));
  const log = (line: string) => o.log(`${o.load} seed ${seed}: ${line}`);
  log(`starting a server (${o.db}) with the demo city`);
  const server: StartedServer = await startServer({
    db: o.db,
    ...(custom.database ? { seeded: { ...custom.database.seeded, appSecret: APP_SECRET } } : { seedDemo: true }),
    startTimeoutMs: 600_000,
    // A server of the run's own, its database thrown away: no drain of 20 s on the way out.
    env: { ...custom.database?.env, APP_SECRET, ...scaled.env, DISPATCH_AWAY_AFTER_TIMEOUTS: "3", SHUTDOWN_DRAIN_SECONDS: "1" },
  });
  try {
    log("server up");
    const session = await signIn(server.url, server.adminEmail, server.adminPassword);
    const cookie = session.cookie;
    const api = new PassengerApi(server.url, server.apiKey);
    const provisioning = new DriverPhone(server.url, provisioningKeyFor(APP_SECRET));
    // The seed's open orders would be dispatched too: the day's orders are the only ones.
    for (const group of ["free", "assigned", "preorders", "moderation"]) {
      const board = decoded<{ items: Array<{ uuid: string }> }>(await trpcQuery(server.url, "orders.board", { filter: { group }, limit: 500 }, cookie));
      for (let at = 0; at < board.items.length; at += 8) {
        await Promise.all(board.items.slice(at, at + 8).map((row) => api.cancel(row.uuid, "a quiet city for the live arm").catch(() => undefined)));
      }
    }
    log("open orders cancelled");
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
    const needed = o.drivers + o.silent;
    for (let at = 0; at < callSigns.length && !(custom.playedOnly && ready.length >= needed); at += 8) {
      const batch = callSigns.slice(at, at + 8);
      const done = await Promise.all(batch.map(quieten));
      batch.forEach((callSign, i) => {
        const services = done[i];
        if (!services) return;
        serviceIds = serviceIds ? serviceIds.filter((id) => services.includes(id)) : [...services];
        ready.push(callSign);
      });
    }
    log(`${ready.length} drivers off shift`);
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
      // Either rule alone keeps a silent driver out (the app's silence is the shorter), and the position's age follows it within seconds.
      warmUpSeconds: Math.min(Number(scaled.env.DISPATCH_APP_SILENT_SECONDS), Number(scaled.env.DISPATCH_POSITION_MAX_AGE_SECONDS)) + 3,
      lookSeconds: o.lookSeconds,
      radiusKm: WORLD_DEFAULTS.radiusKm,
      drainSeconds: 45 * 60,
      log,
    });
    log("day over; reading the offers");
    // Every offer of the day's orders, from the server's own record.
    const silentSet = new Set(ready.slice(o.drivers, o.drivers + o.silent));
    const board = decoded<{ items: Array<{ id: number; uuid: string }> }>(await trpcQuery(server.url, "orders.board", { filter: { group: "all" }, limit: 500 }, cookie));
    const idOf = new Map(board.items.map((r) => [r.uuid, r.id]));
    let offers = 0;
    let timeouts = 0;
    let offersToSilent = 0;
    const played = new Set(ready.slice(0, o.drivers));
    let offersToOthers = 0;
    for (const order of live.orders) {
      const id = idOf.get(order.uuid);
      if (id === undefined) continue;
      const card = decoded<{ attempts: Array<{ callSign: string; state: string }> }>(await trpcQuery(server.url, "dispatch.order", { orderId: id }, cookie));
      offers += card.attempts.length;
      timeouts += card.attempts.filter((a) => a.state === "TIMED_OUT").length;
      offersToSilent += card.attempts.filter((a) => silentSet.has(a.callSign)).length;
      offersToOthers += card.attempts.filter((a) => !played.has(a.callSign)).length;
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
    const summary = {
      notPlaced: live.notPlaced,
      unknown: all.filter((r) => r.outcome === "unknown").length,
      lag: live.lag,
      placed: live.placed,
      callMs: live.callMs,
    };
    const invalidBecause = validity(summary, scaled.rule.acceptSeconds);
    log(`${invalidBecause.length ? `NOT VALID (${invalidBecause.join("; ")})` : "valid"}; calls p95 ${Math.round(live.callMs.p95)} ms, placed p95 ${live.placed.p95Seconds.toFixed(1)} s`);
    log(`done: live wait ${(liveFigures.meanWaitAll / 60).toFixed(2)} min, model ${(model.meanWaitAll / 60).toFixed(2)} min; offers to silent drivers ${offersToSilent}; lag mean ${live.lag.meanSeconds.toFixed(1)} s, max ${live.lag.maxSeconds.toFixed(1)} s`);
    return {
      seed,
      model,
      live: liveFigures,
      offersToSilent,
      offersToOthers,
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
      valid: invalidBecause.length === 0,
      invalidBecause,
    };
  } catch (error) {
    // What the server said last (a crash shows there, not in the clients' errors).
    log(`failed: ${error instanceof Error ? error.message : String(error)}; the server's last output:\n${server.output().slice(-4000)}`);
    throw error;
  } finally {
    await server.stop();
  }
}

export interface LiveReport {
  seeds: number[];
  load: { name: string; scale: number; drivers: number; silent: number; perMinute: number; minutes: number };
  speedUp: number;
  lookSeconds: number;
  db: TestDb;
  parallel: number;
  server: ReturnType<typeof scaledSettings>;
  model: WorldSettings;
  perSeed: LiveSeed[];
  /** The seeds that kept up (VALIDITY): the only ones in the metrics. */
  validSeeds: number[];
  /** Per metric, over the valid seeds: the model's and the live arm's means with 95 % intervals, and the paired difference live − model. */
  metrics: Record<keyof ArmFigures, { model: Estimate; live: Estimate; diff: Estimate }>;
  /** Over every seed, valid or not. */
  offersToSilent: number;
}

/** The file: one section per load run (a run of one load replaces that load's section and keeps the others). */
export interface LiveReports {
  generatedBy: string;
  validity: typeof VALIDITY;
  loads: LiveReport[];
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
  return summarise(perSeed, {
    load: { name: o.load, scale: o.scale, drivers: o.drivers, silent: o.silent, perMinute: o.perMinute, minutes: o.minutes },
    speedUp: o.speedUp,
    lookSeconds: o.lookSeconds,
    db: o.db,
    parallel: o.parallel,
    server: scaledSettings(o.speedUp),
    model: modelSettings(o),
  });
}

type RunSetup = Omit<LiveReport, "seeds" | "perSeed" | "validSeeds" | "metrics" | "offersToSilent">;

/** The figures over the seeds that kept up. */
function summarise(seeds: LiveSeed[], setup: RunSetup): LiveReport {
  const perSeed = [...seeds].sort((a, b) => a.seed - b.seed);
  const valid = perSeed.filter((s) => s.valid);
  const metrics = Object.fromEntries(
    METRICS.map((m) => [
      m,
      {
        model: estimate(valid.map((s) => s.model[m])),
        live: estimate(valid.map((s) => s.live[m])),
        diff: estimate(valid.map((s) => s.live[m] - s.model[m])),
      },
    ]),
  ) as LiveReport["metrics"];
  return {
    ...setup,
    seeds: perSeed.map((s) => s.seed),
    perSeed,
    validSeeds: valid.map((s) => s.seed),
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

function loadTable(r: LiveReport): string {
  const valid = r.perSeed.filter((s) => s.valid);
  const n = valid.length;
  const over = valid.length ? valid : r.perSeed;
  const lagP95 = Math.max(...over.map((s) => s.lag.p95Seconds));
  const wall = mean(over.map((s) => s.wallSeconds));
  const placedMean = mean(over.map((s) => s.placed.meanSeconds));
  const placedP95 = Math.max(...over.map((s) => s.placed.p95Seconds));
  const callP95 = Math.max(...over.map((s) => s.callMs.p95));
  const invalid = r.perSeed.filter((s) => !s.valid);
  const l = r.load;
  const lines = [
    `**Load "${l.name}" scaled to ${Math.round(l.scale * 100)} %**: ${l.drivers} drivers, ${+l.perMinute.toFixed(2)} orders/min, ${l.minutes} simulated minutes of orders, the same city, plus ${l.silent} silent drivers; the live arm on ${r.db === "postgres" ? "PostgreSQL" : "PGlite"} at ×${r.speedUp}${r.parallel > 1 ? `, up to ${Math.min(r.parallel, r.seeds.length)} seeds at once` : ""}. Seeds ${r.seeds.join(", ")}; ${n ? `in the first table the ${n} that kept up (${r.validSeeds.join(", ")})` : "none kept up"}; 95 % confidence intervals over the seeds of each table, the difference paired by seed.`,
    "",
    "| metric | in-process model (default) | live server | live − model |",
    "|---|---:|---:|---:|",
    ...(n ? METRICS.map((m) => `| ${LABELS[m].name} | ${show(r.metrics[m].model, LABELS[m].unit, n)} | ${show(r.metrics[m].live, LABELS[m].unit, n)} | ${show(r.metrics[m].diff, LABELS[m].unit, n)} |`) : []),
    `| offers to silent drivers (every seed) | — | ${r.offersToSilent} of ${r.perSeed.reduce((a, s) => a + s.offers, 0)} | |`,
    "",
    ...(invalid.length
      ? [
          `The ${invalid.length} seed${invalid.length > 1 ? "s" : ""} that did not keep up (${invalid.map((s) => s.seed).join(", ")}), apart, not averaged with the others: their live figures carry the machine's lag.`,
          "",
          "| metric (seeds that did not keep up) | in-process model (default) | live server | live − model |",
          "|---|---:|---:|---:|",
          ...METRICS.map((m) => {
            const e = (f: (s: LiveSeed) => number) => estimate(invalid.map(f));
            return `| ${LABELS[m].name} | ${show(e((s) => s.model[m]), LABELS[m].unit, invalid.length)} | ${show(e((s) => s.live[m]), LABELS[m].unit, invalid.length)} | ${show(e((s) => s.live[m] - s.model[m]), LABELS[m].unit, invalid.length)} |`;
          }),
        ]
      : []),
    "",
    `Keeping up (${valid.length ? "the seeds in the figures" : "every seed"}): an order was in the server's hands on average ${placedMean.toFixed(1)} simulated seconds after its planned moment (worst seed's 95th percentile ${placedP95.toFixed(1)} s; its wait counts from the planned moment); the clients' scheduled actions' worst 95th percentile of lateness ${lagP95.toFixed(1)} s; a call's worst 95th percentile ${Math.round(callP95)} ms real against the offer's deadline of ${r.server.rule.acceptSeconds} real seconds; a seed's day took ${(wall / 60).toFixed(1)} real minutes. ${invalid.length ? `**Not kept up (apart):** ${invalid.map((s) => `seed ${s.seed} (${s.invalidBecause.join("; ")})`).join(", ")}. ` : "Every seed kept up. "}Orders taken from the radio per seed: ${r.perSeed.map((s) => s.radioTakes).join(", ")}; drivers set away at the end: ${r.perSeed.map((s) => s.awayAtEnd).join(", ")}.`,
  ];
  return lines.join("\n");
}

export function liveTable(f: LiveReports): string {
  const v = f.validity;
  return [
    `A seed counts when the server kept up: orders in its hands within ${v.placedP95Seconds} simulated seconds of their moment and the clients' actions no later (95th percentiles), a call's 95th percentile under ${Math.round(v.callP95ShareOfDeadline * 100)} % of the offer's real deadline, every order placed and with an outcome. A seed that breaks it is named and left out of the figures.`,
    ...f.loads.flatMap((r) => ["", loadTable(r)]),
  ].join("\n");
}

function seedRows(r: LiveReport): string[] {
  return r.perSeed.map(
    (s) =>
      `| ${r.load.name} | ${s.seed} | ${s.valid ? "yes" : `no: ${s.invalidBecause.join("; ")}`} | ${s.model.orders} | ${(s.model.meanWaitAll / 60).toFixed(2)} | ${(s.live.meanWaitAll / 60).toFixed(2)} | ${(s.model.meanWaitServed / 60).toFixed(2)} | ${(s.live.meanWaitServed / 60).toFixed(2)} | ${(s.model.lostShare * 100).toFixed(1)} | ${(s.live.lostShare * 100).toFixed(1)} | ${s.model.offersPerOrder.toFixed(2)} | ${s.live.offersPerOrder.toFixed(2)} | ${(s.model.timeoutShare * 100).toFixed(1)} | ${(s.live.timeoutShare * 100).toFixed(1)} | ${s.offersToSilent} | ${s.lag.p95Seconds.toFixed(1)} / ${s.lag.maxSeconds.toFixed(1)} | ${s.placed.p95Seconds.toFixed(1)} / ${s.placed.maxSeconds.toFixed(1)} | ${Math.round(s.callMs.median)} / ${Math.round(s.callMs.p95)} | ${JSON.stringify(s.failedCalls)} |`,
  );
}

export function liveMarkdown(f: LiveReports): string {
  return [
    "# Dispatch: the live arm against the in-process model",
    "",
    `Generated by \`${f.generatedBy}\`; the method is in [../dispatch.md](../dispatch.md#the-live-arm). Do not edit.`,
    "",
    liveTable(f),
    "",
    ...f.loads.map(
      (r) =>
        `Load "${r.load.name}": server settings (scaled by ×${r.speedUp}) ${JSON.stringify(r.server.rule)}; environment ${JSON.stringify(r.server.env)}; the deadline the drivers had: ${r.server.acceptSimSeconds} simulated seconds; the model's settings ${JSON.stringify({ acceptSeconds: r.model.acceptSeconds, batchSeconds: r.model.batchSeconds, lookSeconds: r.model.lookSeconds })}.\n`,
    ),
    "## Per seed",
    "",
    "| load | seed | kept up | orders | wait all, model | wait all, live | served wait, model | served wait, live | lost % model | lost % live | offers/order model | live | timed out % model | live | offers to silent | actions late p95 / max (s) | placed late p95 / max (s) | call ms median / p95 | failed calls |",
    "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|",
    ...f.loads.flatMap(seedRows),
    "",
  ].join("\n");
}

const DOC = "docs/dispatch.md";
const BEGIN = "<!-- dispatch-live:begin (generated by npm run simulate -- --compare --live; do not edit) -->";
const END = "<!-- dispatch-live:end -->";

/** This load's section into the file's (replacing an earlier run of the same load; the others kept, in LOADS' order). */
export function mergeLiveReport(r: LiveReport, previous: LiveReports | null): LiveReports {
  const order = (name: string) => LOADS.findIndex((l) => l.load === name);
  const same = (x: LiveReport) => x.load?.name === r.load.name;
  const kept = (previous?.loads ?? []).filter((x) => x.load?.name !== undefined && !same(x));
  // More seeds of the same scenario (the same load, scale, length, speed and database) join the earlier ones; a seed run again replaces its earlier run.
  const earlier = (previous?.loads ?? []).find(same);
  const setupOf = (x: LiveReport) => JSON.stringify([x.load, x.speedUp, x.lookSeconds, x.db, x.server, x.model]);
  const joined = earlier && setupOf(earlier) === setupOf(r) ? summarise([...earlier.perSeed.filter((s) => !r.seeds.includes(s.seed)), ...r.perSeed], { ...r, parallel: Math.max(earlier.parallel, r.parallel) }) : r;
  return { generatedBy: "npm run simulate -- --compare --live", validity: VALIDITY, loads: [...kept, joined].sort((a, b) => order(a.load.name) - order(b.load.name)) };
}

/** The report's files and the doc's table, from the whole file. */
export function writeLiveReports(f: LiveReports, out?: string): void {
  const dir = path.resolve(out ?? "docs/dispatch");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "dispatch-live.json"), JSON.stringify(f, null, 2) + "\n");
  writeFileSync(path.join(dir, "dispatch-live.md"), liveMarkdown(f));
  if (out !== undefined) return;
  const doc = readFileSync(DOC, "utf8");
  const a = doc.indexOf(BEGIN);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${DOC}: the markers of the live arm's table are missing`);
  writeFileSync(DOC, doc.slice(0, a + BEGIN.length) + "\n\n" + liveTable(f) + "\n\n" + doc.slice(b));
}

/** The kept report of the live arm (DIR/dispatch-live.json), or null. */
export function readLiveReports(out?: string): LiveReports | null {
  try {
    const read = JSON.parse(readFileSync(path.join(path.resolve(out ?? "docs/dispatch"), "dispatch-live.json"), "utf8")) as Partial<LiveReports>;
    return Array.isArray(read.loads) ? (read as LiveReports) : null;
  } catch {
    return null;
  }
}

export function writeLiveReport(r: LiveReport, out?: string): LiveReports {
  const f = mergeLiveReport(r, readLiveReports(out));
  writeLiveReports(f, out);
  return f;
}
