// One simulated day under one strategy, on a simulated clock (one-second
// ticks), in process: the dispatch decisions are the server's own core
// (server/dispatch/core: the eligibility, the greedy rule, the parking-queue
// rule and the batched assignment), fed the way server/dispatch/round.ts
// feeds it; offers have the server's deadline, refusals and timeouts go to
// the next candidate, and after the attempts the order goes on the radio.
// "pull-nearest" is today's model: free drivers look at the free orders
// every few seconds and take the nearest one (server/simulator/engine.ts).
import { Rng } from "../../seed/demo/random";
import { planAssignments } from "../../dispatch/core/plan";
import type { DriverToDispatch, OrderRules, OrderToDispatch } from "../../dispatch/core/types";
import { regionOf, travelSeconds, type CityShape, type DayPlan, type Passenger, type Point } from "./city";

export type StrategyName = "pull-nearest" | "greedy" | "queue" | "batched";

export interface WorldSettings {
  acceptSeconds: number;
  attempts: number;
  radiusKm: number;
  fairnessWeight: number;
  batchSeconds: number;
  /** Free drivers look at the free orders this often (the pull model and the radio). */
  lookSeconds: number;
  /** Share of offers a driver refuses, and lets time out. */
  refuseShare: number;
  timeoutShare: number;
  /** Fare: pick-up plus per km, kopecks. */
  fareBase: number;
  farePerKm: number;
}

export const WORLD_DEFAULTS: WorldSettings = {
  acceptSeconds: 15,
  attempts: 3,
  radiusKm: 5,
  fairnessWeight: 2,
  batchSeconds: 5,
  lookSeconds: 8,
  refuseShare: 0.08,
  timeoutShare: 0.04,
  fareBase: 9900,
  farePerKm: 2500,
};

type OrderPhase = "free" | "offered" | "radio" | "assigned" | "lost" | "served";

interface SimOrder {
  p: Passenger;
  phase: OrderPhase;
  refused: Set<number>;
  attempts: number;
  acceptedAt: number | null;
  arrivedAt: number | null;
}

interface SimDriver {
  id: number;
  pos: Point;
  /** Free from this second (busy until then). */
  freeAt: number;
  lastJobEnd: number;
  offer: { order: SimOrder; answerAt: number; accept: boolean } | null;
  busySeconds: number;
  earnings: number;
  queueSince: number | null;
  nextLook: number;
  rng: Rng;
}

export interface DayResult {
  strategy: StrategyName;
  orders: number;
  served: number;
  lost: number;
  waits: number[];
  assignedWithin60: number;
  utilisation: number;
  earnings: number[];
}

/** The city's metres as degrees around a latitude of 55.75 (the core measures its radius in degrees). */
function degrees(p: Point): { lat: number; lon: number } {
  return { lat: 55.75 + p.y / 111_320, lon: 37.62 + p.x / (111_320 * Math.cos((55.75 * Math.PI) / 180)) };
}

export function playDay(plan: DayPlan, city: CityShape, strategy: StrategyName, seed: number, settings: WorldSettings = WORLD_DEFAULTS): DayResult {
  const rng = new Rng(seed).fork(`world:${strategy}`);
  const drivers: SimDriver[] = plan.driverStarts.map((pos, i) => ({
    id: i + 1,
    pos,
    freeAt: 0,
    lastJobEnd: 0,
    offer: null,
    busySeconds: 0,
    earnings: 0,
    queueSince: 0,
    nextLook: rng.range(0, settings.lookSeconds),
    // Each driver's own answers, the same whatever the strategy asks of them.
    rng: new Rng(seed).fork(`driver:${i}`),
  }));
  const orders: SimOrder[] = [];
  let next = 0;
  const rules: OrderRules = {
    mode: strategy === "queue" ? "QUEUE" : "AUTO",
    radiusKm: settings.radiusKm,
    fairnessWeight: settings.fairnessWeight,
    minBalance: Number.NEGATIVE_INFINITY,
    chainSeconds: 0,
  };
  const lastMinute = plan.passengers.at(-1)?.at ?? 0;
  const end = lastMinute + 3 * 3600;
  const isFree = (d: SimDriver, now: number) => d.freeAt <= now && d.offer === null;

  const assign = (d: SimDriver, o: SimOrder, now: number) => {
    o.phase = "assigned";
    o.acceptedAt = now;
    const toPickup = travelSeconds(d.pos, o.p.pickup);
    const trip = travelSeconds(o.p.pickup, o.p.destination);
    o.arrivedAt = now + toPickup;
    const done = now + toPickup + o.p.boarding + trip;
    d.busySeconds += done - now;
    d.freeAt = done;
    d.lastJobEnd = done;
    d.pos = o.p.destination;
    d.queueSince = null;
    const km = (Math.hypot(o.p.pickup.x - o.p.destination.x, o.p.pickup.y - o.p.destination.y) * 1.3) / 1000;
    d.earnings += settings.fareBase + settings.farePerKm * km;
  };

  for (let now = 0; now <= end; now++) {
    while (next < plan.passengers.length && plan.passengers[next]!.at <= now) {
      orders.push({ p: plan.passengers[next]!, phase: "free", refused: new Set(), attempts: 0, acceptedAt: null, arrivedAt: null });
      next += 1;
    }
    if (next >= plan.passengers.length && orders.every((o) => o.phase === "lost" || o.phase === "assigned")) break;
    // Passengers give up; drivers become free (and stand in the queue of where they are).
    for (const o of orders) {
      if ((o.phase === "free" || o.phase === "radio") && now - o.p.at >= o.p.patience) o.phase = "lost";
    }
    for (const d of drivers) if (d.freeAt <= now && d.queueSince === null) d.queueSince = Math.max(d.freeAt, 0);
    // Answers to offers.
    for (const d of drivers) {
      const offer = d.offer;
      if (!offer || offer.answerAt > now) continue;
      d.offer = null;
      if (offer.order.phase !== "offered") continue;
      if (offer.accept) assign(d, offer.order, now);
      else {
        offer.order.refused.add(d.id);
        offer.order.phase = offer.order.attempts >= settings.attempts ? "radio" : "free";
      }
    }
    if (strategy === "pull-nearest") pull(orders.filter((o) => o.phase === "free"), now);
    else {
      pull(orders.filter((o) => o.phase === "radio"), now);
      const batchDue = strategy !== "batched" || now % settings.batchSeconds === 0;
      const free = orders.filter((o) => o.phase === "free");
      if (batchDue && free.length > 0) offerRound(free, now);
    }
  }

  function pull(free: SimOrder[], now: number): void {
    if (free.length === 0) return;
    const claimed = new Set<SimOrder>();
    const looking = drivers.filter((d) => isFree(d, now) && d.nextLook <= now);
    for (const d of rng.shuffle(looking)) {
      d.nextLook = now + settings.lookSeconds;
      let best: { o: SimOrder; s: number } | undefined;
      for (const o of free) {
        if (claimed.has(o) || o.refused.has(d.id)) continue;
        const s = travelSeconds(d.pos, o.p.pickup);
        if (Math.hypot(d.pos.x - o.p.pickup.x, d.pos.y - o.p.pickup.y) > settings.radiusKm * 1000) continue;
        if (!best || s < best.s) best = { o, s };
      }
      if (!best) continue;
      claimed.add(best.o);
      assign(d, best.o, now);
    }
  }

  function offerRound(free: SimOrder[], now: number): void {
    const pool = drivers.filter((d) => isFree(d, now));
    if (pool.length === 0) return;
    const inputs: OrderToDispatch[] = free.map((o) => ({
      id: o.p.id,
      serviceId: 1,
      regionId: regionOf(city, o.p.pickup),
      ...degrees(o.p.pickup),
      waitingSeconds: now - o.p.at,
      neededOptions: [],
      refusedBy: o.refused,
      rules,
    }));
    const queues = new Map<number, SimDriver[]>();
    for (const d of pool) {
      const r = regionOf(city, d.pos);
      queues.set(r, [...(queues.get(r) ?? []), d]);
    }
    const place = new Map<number, { regionId: number; position: number }>();
    for (const [regionId, list] of queues) {
      list.sort((a, b) => (a.queueSince ?? 0) - (b.queueSince ?? 0) || a.id - b.id).forEach((d, position) => place.set(d.id, { regionId, position }));
    }
    const dInputs: DriverToDispatch[] = pool.map((d) => ({
      id: d.id,
      ...degrees(d.pos),
      serviceIds: [1],
      options: [],
      balance: 0,
      idleSeconds: now - d.lastJobEnd,
      queue: strategy === "queue" ? place.get(d.id)! : null,
      busyForSeconds: 0,
    }));
    const assignments = planAssignments(inputs, dInputs, (i, j) => travelSeconds(pool[j]!.pos, free[i]!.p.pickup), strategy === "batched" ? "BATCHED" : "GREEDY");
    const byId = new Map(free.map((o) => [o.p.id, o]));
    const driverById = new Map(pool.map((d) => [d.id, d]));
    for (const a of assignments) {
      const o = byId.get(a.orderId)!;
      const d = driverById.get(a.driverId)!;
      o.phase = "offered";
      o.attempts += 1;
      const r = d.rng.float();
      const refuse = r < settings.refuseShare;
      const timeout = !refuse && r < settings.refuseShare + settings.timeoutShare;
      const answer = timeout ? settings.acceptSeconds : Math.round(d.rng.range(3, 12));
      d.offer = { order: o, answerAt: now + answer, accept: !refuse && !timeout };
    }
  }

  const served = orders.filter((o) => o.phase === "assigned");
  const shift = Math.max(1, ...drivers.map((d) => Math.max(d.freeAt, lastMinute)));
  return {
    strategy,
    orders: orders.length,
    served: served.length,
    lost: orders.filter((o) => o.phase === "lost").length,
    waits: served.map((o) => o.arrivedAt! - o.p.at),
    assignedWithin60: orders.filter((o) => o.acceptedAt !== null && o.acceptedAt - o.p.at <= 60).length,
    utilisation: drivers.reduce((sum, d) => sum + d.busySeconds, 0) / (drivers.length * shift),
    earnings: drivers.map((d) => d.earnings),
  };
}
