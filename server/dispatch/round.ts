// One round of automatic dispatch (every DISPATCH_TICK_MS in each instance,
// server/dispatch/job.ts): close stale and expired offers, put RADIO orders
// on the radio, then decide which free driver gets which free order — the
// parking-queue rule, then the greedy rule or, every batchSeconds, the
// batched assignment — and make the offers one by one under row locks.
// Several instances may run rounds at once: a pair another instance took
// first is skipped (offer.ts), never offered twice.
import type { Db } from "../db";
import { SYSTEM_ACTOR } from "../actor";
import { log } from "../log";
import { isDomainError } from "../errors";
import { makeOffer, publishOffer } from "./offer";
import { expireOffer } from "./answer-offer";
import { arrivalTimes, driverInput, orderInput } from "./candidates";
import { planAssignments } from "./core/plan";
import { adaptToScarcity } from "./core/scarcity";
import { config } from "../config";
import { queueAssign } from "./core/queue-rule";
import type { Assignment, DriverToDispatch, OrderToDispatch } from "./core/types";
import { isCandidate, radiusNowKm } from "./core/eligibility";
import { readChainDrivers, readExpiredOffers, readFreeDrivers, readFreeOrders, readQueuePlaces, withdrawStaleOffers, type FreeOrderRow } from "./data";
import { loadSettings, type DispatchSettings } from "./settings";
import { moveIfStill } from "./timed-moves";

/**
 * Offers made at once in a round. Four at a time shortened the rounds but
 * slowed every position report of a 1,000-driver fleet several times over,
 * in round one and again after the offer's checks became one statement
 * (docs/performance.md, "A fleet of ten thousand"): each offer wakes its
 * driver's stream and, in the benchmark, brings a refusal, so more offers a
 * second is more work a second on the same event loop. One at a time.
 */
const OFFER_CONCURRENCY = 1;

/**
 * The drivers who are a candidate of at least one order by the rules that
 * need no arrival time (service, balance, options, refusals, the straight-line
 * radius), found through a grid of cells a radius wide; and how many such
 * pairs there are.
 */
export function candidatePool(orders: readonly OrderToDispatch[], drivers: readonly DriverToDispatch[]): { pool: DriverToDispatch[]; pairs: number } {
  const maxKm = Math.max(0, ...orders.map((o) => radiusNowKm(o)));
  if (orders.length === 0 || drivers.length === 0 || maxKm <= 0) return { pool: [], pairs: 0 };
  const cellLat = maxKm / 111;
  const cellLon = maxKm / (111 * Math.max(0.1, Math.cos((orders[0]!.lat * Math.PI) / 180)));
  const cellOf = (lat: number, lon: number) => [Math.floor(lat / cellLat), Math.floor(lon / cellLon)] as const;
  const grid = new Map<string, number[]>();
  drivers.forEach((d, j) => {
    const [a, b] = cellOf(d.lat, d.lon);
    const key = `${a}:${b}`;
    const list = grid.get(key);
    if (list) list.push(j);
    else grid.set(key, [j]);
  });
  const inPool = new Set<number>();
  let pairs = 0;
  // The parking-queue rule offers a QUEUE region's order to its queue whatever the distance (core/queue-rule.ts).
  const queued = new Map<number, number[]>();
  drivers.forEach((d, j) => {
    if (d.queue) queued.set(d.queue.regionId, [...(queued.get(d.queue.regionId) ?? []), j]);
  });
  for (const o of orders) {
    if (o.rules.mode === "QUEUE" && o.regionId !== null) {
      for (const j of queued.get(o.regionId) ?? []) inPool.add(j);
    }
    const [a, b] = cellOf(o.lat, o.lon);
    for (let x = a - 1; x <= a + 1; x++) {
      for (let y = b - 1; y <= b + 1; y++) {
        for (const j of grid.get(`${x}:${y}`) ?? []) {
          // The arrival time is not known yet: 0 stands for "reachable" here; the plan checks the real one.
          if (isCandidate(o, drivers[j]!, 0)) {
            pairs += 1;
            inPool.add(j);
          }
        }
      }
    }
  }
  return { pool: drivers.filter((_, j) => inPool.has(j)), pairs };
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
}

export function newRoundState(): RoundState {
  return { lastBatch: new Map() };
}

/** Closes offers whose order moved on, and offers past their deadline. */
export async function sweepOffers(db: Db): Promise<number> {
  for (const row of await withdrawStaleOffers(db)) {
    publishOffer({ offerId: row.id, orderId: row.order_id, driverId: row.driver_id, kind: "LIVE", deadline: new Date() }, "WITHDRAWN");
  }
  let expired = 0;
  for (const due of await readExpiredOffers(db)) if (await expireOffer(db, due.id, due.order_id)) expired += 1;
  return expired;
}

interface Candidate {
  row: FreeOrderRow;
  settings: DispatchSettings;
  input: OrderToDispatch;
}

export async function dispatchRound(db: Db, state: RoundState, now = new Date()): Promise<RoundReport> {
  const report: RoundReport = { offers: 0, expired: 0, toRadio: 0, orders: 0, drivers: 0, pairs: 0, planSeconds: 0 };
  const started = performance.now();
  // Offers end by their deadline even with no rule at all: a dispatcher's offer (sent by hand) would hold the driver BUSY forever.
  report.expired = await sweepOffers(db);
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

  for (const [cityId, candidates] of byCity) {
    const drivers = driverRows.filter((d) => d.city_id === cityId).map((d) => driverInput(d, queue, now));
    if (drivers.length === 0) continue;
    const batchEvery = Math.min(...candidates.filter((c) => c.settings.strategy === "BATCHED").map((c) => c.settings.batchSeconds * 1000));
    const batchDue = Number.isFinite(batchEvery) && now.getTime() - (state.lastBatch.get(cityId) ?? 0) >= batchEvery;
    if (batchDue) state.lastBatch.set(cityId, now.getTime());
    const chosen = candidates.filter((c) => c.settings.strategy === "GREEDY" || batchDue || c.settings.mode === "QUEUE");
    if (chosen.length === 0) continue;
    // More free orders than free cars: the radius capped, no chains (core/scarcity.ts, measured in docs/dispatch.md).
    const orders = adaptToScarcity(chosen.map((c) => c.input), drivers, config().DISPATCH_SCARCE_RADIUS_KM);
    // Only the drivers within some order's radius (and its other rules) get
    // arrival times: the pairs are sparse, not every order × every car.
    const { pool, pairs } = candidatePool(orders, drivers);
    report.orders += orders.length;
    report.drivers += drivers.length;
    report.pairs += pairs;
    if (pool.length === 0) continue;
    const matrix = await arrivalTimes(db, cityId, orders, pool, now);
    const assignments = planCity(chosen, orders, pool, matrix, batchDue);
    report.planSeconds = (performance.now() - started) / 1000;
    const byOrder = new Map(chosen.map((c) => [c.row.id, c]));
    // The offers are independent (each its own order and driver, each under
    // its own row locks), so they may go OFFER_CONCURRENCY at a time.
    let next = 0;
    const offerOne = async (a: Assignment) => {
      const c = byOrder.get(a.orderId)!;
      const made = await makeOffer(db, {
        orderId: a.orderId,
        driverId: a.driverId,
        kind: a.chain ? "CHAIN" : "LIVE",
        source: a.source,
        arrivalSeconds: a.arrivalSeconds,
        acceptSeconds: c.settings.acceptSeconds,
        actor: SYSTEM_ACTOR,
      }).catch((error: unknown) => {
        // The order or the driver changed since the round read them (a driver
        // took a free order, went off shift, answered another offer): expected,
        // the next round sees the new state. Anything else is worth a warning.
        if (isDomainError(error) && error.code === "CONFLICT") {
          log.debug("dispatch: an offer was overtaken", { orderId: a.orderId, driverId: a.driverId, reason: error.details.reasonKey ?? error.details.reason });
        } else {
          log.warn("dispatch: an offer failed", { orderId: a.orderId, driverId: a.driverId, error: error instanceof Error ? error.message : String(error) });
        }
        return undefined;
      });
      if (made) report.offers += 1;
    };
    await Promise.all(
      Array.from({ length: Math.min(OFFER_CONCURRENCY, assignments.length) }, async () => {
        while (next < assignments.length) await offerOne(assignments[next++]!);
      }),
    );
  }
  return report;
}

/**
 * Greedy orders every round; batched ones in the batch when it is due (and
 * between batches only by the parking-queue rule). One driver at most once.
 */
function planCity(chosen: Candidate[], orders: OrderToDispatch[], drivers: DriverToDispatch[], matrix: number[][], batchDue: boolean): Assignment[] {
  const index = new Map(drivers.map((d, j) => [d.id, j]));
  const arrivalIn = (subset: number[], pool: DriverToDispatch[]) => (r: number, j: number) => matrix[subset[r]!]![index.get(pool[j]!.id)!];
  const greedy = chosen.flatMap((c, i) => (c.settings.strategy === "GREEDY" ? [i] : []));
  const first = greedy.length ? planAssignments(greedy.map((i) => orders[i]!), drivers, arrivalIn(greedy, drivers), "GREEDY") : [];
  const used = new Set(first.map((a) => a.driverId));
  const pool = drivers.filter((d) => !used.has(d.id));
  const batched = chosen.flatMap((c, i) => (c.settings.strategy === "BATCHED" ? [i] : []));
  if (batched.length === 0 || pool.length === 0) return first;
  const subset = batched.map((i) => orders[i]!);
  if (batchDue) return [...first, ...planAssignments(subset, pool, arrivalIn(batched, pool), "BATCHED")];
  return [...first, ...queueAssign(subset, pool, arrivalIn(batched, pool), new Set()).assigned];
}
