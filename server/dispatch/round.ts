// One round of automatic dispatch (every DISPATCH_TICK_MS in each instance,
// server/dispatch/job.ts): close stale and expired offers, put RADIO orders
// on the radio, then decide which free driver gets which free order — the
// parking-queue rule, then the greedy rule or, every batchSeconds, the
// batched assignment — and make the offers under row locks, several to a
// transaction with a savepoint each (offer-batch.ts).
// Several instances may run rounds at once: a pair another instance took
// first is skipped (offer.ts), never offered twice.
import type { Db } from "../db";
import { SYSTEM_ACTOR } from "../actor";
import { log } from "../log";
import { isDomainError } from "../errors";
import { publishOffer } from "./offer";
import { makeOffers, offerLanes } from "./offer-batch";
import { expireOffers } from "./answer-offer";
import { candidateArrivals, driverInput, orderInput } from "./candidates";
import { planAssignments } from "./core/plan";
import { adaptToScarcity } from "./core/scarcity";
import { config } from "../config";
import { queueAssign } from "./core/queue-rule";
import type { ArrivalOf, Assignment, CandidatesOf, DriverToDispatch, OrderToDispatch } from "./core/types";
import { isCandidate, radiusNowKm } from "./core/eligibility";
import { readChainDrivers, readExpiredOffers, readFreeDrivers, readFreeOrders, readQueuePlaces, withdrawStaleOffers, type FreeOrderRow } from "./data";
import { loadSettings, type DispatchSettings } from "./settings";
import { moveIfStill } from "./timed-moves";

/**
 * The drivers who are a candidate of at least one order by the rules that
 * need no arrival time (service, balance, options, refusals, the straight-line
 * radius), found through a grid of cells a radius wide; how many such pairs
 * there are; and each order's candidates (indices into the pool; a QUEUE
 * region's order also has its queue).
 */
export function candidatePool(orders: readonly OrderToDispatch[], drivers: readonly DriverToDispatch[]): { pool: DriverToDispatch[]; pairs: number; candidates: number[][] } {
  const maxKm = Math.max(0, ...orders.map((o) => radiusNowKm(o)));
  if (orders.length === 0 || drivers.length === 0 || maxKm <= 0) return { pool: [], pairs: 0, candidates: orders.map(() => []) };
  const cellLat = maxKm / 111;
  // A cell as wide as the radius where a degree of longitude is shortest: at the orders' latitude farthest from
  // the equator (the first order's, as it was, let a radius due east of an order farther north cross two cells).
  const farthest = Math.min(89, Math.max(...orders.map((o) => Math.abs(o.lat))) + maxKm / 111);
  const cellLon = (1.01 * maxKm) / (111 * Math.max(0.01, Math.cos((farthest * Math.PI) / 180)));
  const cellOf = (lat: number, lon: number) => [Math.floor(lat / cellLat), Math.floor(lon / cellLon)] as const;
  // A number a cell (two cells that share one only share a list: more drivers checked, none missed).
  const keyOf = (a: number, b: number) => a * 4_194_304 + b;
  const grid = new Map<number, number[]>();
  drivers.forEach((d, j) => {
    const [a, b] = cellOf(d.lat, d.lon);
    const key = keyOf(a, b);
    const list = grid.get(key);
    if (list) list.push(j);
    else grid.set(key, [j]);
  });
  let pairs = 0;
  // The parking-queue rule offers a QUEUE region's order to its queue whatever the distance (core/queue-rule.ts).
  const queued = new Map<number, number[]>();
  drivers.forEach((d, j) => {
    if (!d.queue) return;
    const list = queued.get(d.queue.regionId);
    if (list) list.push(j);
    else queued.set(d.queue.regionId, [j]);
  });
  // Marks by index, not a set an order: a round weighs ~50,000 pairs (docs/performance.md).
  const listedFor = new Int32Array(drivers.length).fill(-1);
  const inPool = new Uint8Array(drivers.length);
  const mine = orders.map((o, i) => {
    const list: number[] = [];
    const add = (j: number) => {
      if (listedFor[j] === i) return;
      listedFor[j] = i;
      list.push(j);
    };
    if (o.rules.mode === "QUEUE" && o.regionId !== null) {
      for (const j of queued.get(o.regionId) ?? []) add(j);
    }
    const [a, b] = cellOf(o.lat, o.lon);
    // A degree of latitude is at least 111.19 km of any route between two points: a cheap first look.
    const maxLat = radiusNowKm(o) / 111.19;
    // And of longitude at least that times the cosine of the band's latitude farthest from the equator
    // (1% spare covers the sine's curve at a city's few kilometres).
    const maxLon = (1.01 * maxLat) / Math.max(0.01, Math.cos(((Math.abs(o.lat) + maxLat) * Math.PI) / 180));
    const cells: number[] = [];
    for (let x = a - 1; x <= a + 1; x++) {
      for (let y = b - 1; y <= b + 1; y++) {
        const key = keyOf(x, y);
        // Two cells sharing a number share a list: looked at once.
        if (cells.includes(key)) continue;
        cells.push(key);
        for (const j of grid.get(key) ?? []) {
          const d = drivers[j]!;
          if (Math.abs(d.lat - o.lat) > maxLat || Math.abs(d.lon - o.lon) > maxLon) continue;
          // The arrival time is not known yet: 0 stands for "reachable" here; the plan checks the real one.
          if (isCandidate(o, d, 0)) {
            pairs += 1;
            add(j);
          }
        }
      }
    }
    for (const j of list) inPool[j] = 1;
    return list;
  });
  const at = new Int32Array(drivers.length);
  const pool: DriverToDispatch[] = [];
  drivers.forEach((d, j) => {
    if (!inPool[j]) return;
    at[j] = pool.length;
    pool.push(d);
  });
  return { pool, pairs, candidates: mine.map((list) => list.map((j) => at[j]!)) };
}

export interface RoundState {
  /** When each city last had a batch (pacing only; correctness never depends on it). */
  lastBatch: Map<number, number>;
}

export interface RoundReport {
  offers: number;
  expired: number;
  toRadio: number;
  /** Free orders and free drivers the round weighed, and the candidate pairs among them (the round's size, for the metrics). */
  orders: number;
  drivers: number;
  pairs: number;
  /** Seconds from the round's start to its plan (the reads, the arrival times, the assignment), before the offers are made. */
  planSeconds: number;
  /** Seconds of each phase (summed over the cities), for the metrics: where a round's time goes. */
  phases: Record<RoundPhase, number>;
}

export const ROUND_PHASES = ["sweep", "read", "pool", "arrival", "assign", "offers"] as const;
export type RoundPhase = (typeof ROUND_PHASES)[number];

export function newRoundState(): RoundState {
  return { lastBatch: new Map() };
}

/** Closes offers whose order moved on, and offers past their deadline. */
export async function sweepOffers(db: Db): Promise<number> {
  for (const row of await withdrawStaleOffers(db)) {
    publishOffer({ offerId: row.id, orderId: row.order_id, driverId: row.driver_id, kind: "LIVE", deadline: new Date() }, "WITHDRAWN");
  }
  // All of them in one transaction of a few statements (a night's drivers let many offers time out at once).
  return expireOffers(db, await readExpiredOffers(db));
}

interface Candidate {
  row: FreeOrderRow;
  settings: DispatchSettings;
  input: OrderToDispatch;
}

export async function dispatchRound(db: Db, state: RoundState, now = new Date()): Promise<RoundReport> {
  const report: RoundReport = { offers: 0, expired: 0, toRadio: 0, orders: 0, drivers: 0, pairs: 0, planSeconds: 0, phases: { sweep: 0, read: 0, pool: 0, arrival: 0, assign: 0, offers: 0 } };
  const started = performance.now();
  let mark = started;
  // Each phase ends by giving the event loop a turn: the requests of the
  // instance (a fleet's positions) wait at most one phase's synchronous part.
  const phase = async (name: RoundPhase) => {
    await new Promise((resolve) => setImmediate(resolve));
    const t = performance.now();
    report.phases[name] += (t - mark) / 1000;
    mark = t;
  };
  // Offers end by their deadline even with no rule at all: a dispatcher's offer (sent by hand) would hold the driver BUSY forever.
  report.expired = await sweepOffers(db);
  await phase("sweep");
  const settings = await loadSettings(db);
  if (settings.empty) return report;

  const byCity = new Map<number, Candidate[]>();
  for (const row of await readFreeOrders(db, ["FREE", "FREE_LONG"])) {
    const s = settings.forOrder(row.service_id, row.region_id);
    if (!s || s.mode === "MANUAL" || row.paused) continue;
    if (s.mode === "RADIO") {
      if (await moveIfStill(db, row.id, ["FREE", "FREE_LONG"], "ORDER_ON_RADIO", "broadcast: the service's distribution is the radio")) report.toRadio += 1;
      continue;
    }
    const list = byCity.get(row.city_id) ?? [];
    list.push({ row, settings: s, input: orderInput(row, s, now) });
    byCity.set(row.city_id, list);
  }
  if (byCity.size === 0) return report;

  const maxChain = Math.max(0, ...settings.rows.map((s) => s.chainMinutes * 60));
  const queue = new Map((await readQueuePlaces(db)).map((q) => [q.driver_id, q]));
  const driverRows = [...(await readFreeDrivers(db)), ...(maxChain > 0 ? await readChainDrivers(db, maxChain) : [])];
  await phase("read");

  for (const [cityId, candidates] of byCity) {
    const drivers = driverRows.filter((d) => d.city_id === cityId).map((d) => driverInput(d, queue, now));
    if (drivers.length === 0) continue;
    const batchEvery = Math.min(...candidates.filter((c) => c.settings.strategy === "BATCHED").map((c) => c.settings.batchSeconds * 1000));
    const batchDue = Number.isFinite(batchEvery) && now.getTime() - (state.lastBatch.get(cityId) ?? 0) >= batchEvery;
    if (batchDue) state.lastBatch.set(cityId, now.getTime());
    const chosen = candidates.filter((c) => c.settings.strategy === "GREEDY" || batchDue || c.settings.mode === "QUEUE");
    if (chosen.length === 0) continue;
    // More free orders than free cars: the radius capped, no chains (core/scarcity.ts, measured in docs/dispatch.md).
    const orders = adaptToScarcity(chosen.map((c) => c.input), drivers, config().DISPATCH_SCARCE_RADIUS_KM, config().DISPATCH_DEEP_SCARCE_RADIUS_KM);
    // Only the drivers within some order's radius (and its other rules) get
    // arrival times: the pairs are sparse, not every order × every car.
    const { pool, pairs, candidates: theirs } = candidatePool(orders, drivers);
    report.orders += orders.length;
    report.drivers += drivers.length;
    report.pairs += pairs;
    await phase("pool");
    if (pool.length === 0) continue;
    const arrivals = await candidateArrivals(db, cityId, orders, pool, theirs, now);
    await phase("arrival");
    const assignments = planCity(chosen, orders, pool, arrivals, batchDue);
    await phase("assign");
    report.planSeconds = (performance.now() - started) / 1000;
    const byOrder = new Map(chosen.map((c) => [c.row.id, c]));
    // The offers in batches of one transaction each, a savepoint an offer, a few batches at once on PostgreSQL
    // (offer-batch.ts): a pair taken meanwhile (by this instance or another) rolls back alone, the others still land.
    const outcomes = await makeOffers(
      db,
      assignments.map((a) => ({
        orderId: a.orderId,
        driverId: a.driverId,
        kind: a.chain ? ("CHAIN" as const) : ("LIVE" as const),
        source: a.source,
        arrivalSeconds: a.arrivalSeconds,
        acceptSeconds: byOrder.get(a.orderId)!.settings.acceptSeconds,
        actor: SYSTEM_ACTOR,
      })),
      offerLanes(Boolean(config().DATABASE_URL), config().DATABASE_POOL_SIZE, config().DISPATCH_OFFER_LANES),
    );
    outcomes.forEach((outcome, k) => {
      const a = assignments[k]!;
      if ("made" in outcome) report.offers += 1;
      // The order or the driver changed since the round read them (a driver took a free order, went off shift,
      // answered another offer): expected, the next round sees the new state. Anything else is worth a warning.
      else if ("refused" in outcome) log.debug("dispatch: an offer was overtaken", { orderId: a.orderId, driverId: a.driverId, reason: reasonOf(outcome.refused) });
      else log.warn("dispatch: an offer failed", { orderId: a.orderId, driverId: a.driverId, error: outcome.failed instanceof Error ? outcome.failed.message : String(outcome.failed) });
    });
    await phase("offers");
  }
  return report;
}

/**
 * Greedy orders every round; batched ones in the batch when it is due (and
 * between batches only by the parking-queue rule). One driver at most once.
 */
function reasonOf(error: unknown): unknown {
  return isDomainError(error) ? (error.details.reasonKey ?? error.details.reason) : error instanceof Error ? error.message : String(error);
}

function planCity(chosen: Candidate[], orders: OrderToDispatch[], drivers: DriverToDispatch[], arrivals: Array<Map<number, number>>, batchDue: boolean): Assignment[] {
  const index = new Map(drivers.map((d, j) => [d.id, j]));
  // A subset of the orders against a subset of the drivers: their arrival times and each order's candidates, in the subsets' indices.
  const within = (subset: number[], pool: DriverToDispatch[]) => {
    const at = pool.map((d) => index.get(d.id)!);
    const back = new Map(at.map((j, k) => [j, k]));
    const arrival: ArrivalOf = (r, j) => arrivals[subset[r]!]!.get(at[j]!);
    const candidatesOf: CandidatesOf = (r) => {
      const out: number[] = [];
      for (const j of arrivals[subset[r]!]!.keys()) {
        const k = back.get(j);
        if (k !== undefined) out.push(k);
      }
      return out;
    };
    return { arrival, candidatesOf };
  };
  const greedy = chosen.flatMap((c, i) => (c.settings.strategy === "GREEDY" ? [i] : []));
  const g = within(greedy, drivers);
  const first = greedy.length ? planAssignments(greedy.map((i) => orders[i]!), drivers, g.arrival, "GREEDY", undefined, g.candidatesOf) : [];
  const used = new Set(first.map((a) => a.driverId));
  const pool = drivers.filter((d) => !used.has(d.id));
  const batched = chosen.flatMap((c, i) => (c.settings.strategy === "BATCHED" ? [i] : []));
  if (batched.length === 0 || pool.length === 0) return first;
  const subset = batched.map((i) => orders[i]!);
  const b = within(batched, pool);
  if (batchDue) return [...first, ...planAssignments(subset, pool, b.arrival, "BATCHED", undefined, b.candidatesOf)];
  return [...first, ...queueAssign(subset, pool, b.arrival, new Set(), b.candidatesOf).assigned];
}
