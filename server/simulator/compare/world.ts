// One simulated day under one policy, on a simulated clock (one-second
// ticks), in process, on the demo city's roads (roads.ts). The dispatch
// decisions of the product's strategies are the server's own core
// (server/dispatch/core: eligibility, the greedy rule, the parking-queue
// rule, the batched assignment, the growing radius, the acceptance weight,
// the region hint), fed as server/dispatch/round.ts feeds it, with
// production's settings: a 20 s deadline, 3 attempts then the radio, a 5 km
// radius, chains for drivers finishing within 4 minutes. The offer mechanics
// (deadline, refusal and timeout to the next candidate, the radio) are a
// model of server/dispatch/offer.ts and answer-offer.ts, not those modules
// (they need the database); the live arm is what checks the two agree.
//
// Baselines: "pull" (today's model: free drivers look at the free orders
// every 8 s and take the nearest), "fcfs-nearest" (orders oldest first, each
// to the nearest free car), "nearest-pair" (the cheapest order–car pair
// first, then the next), "queue" (the parking-queue rule) — the same offers,
// refusals and timeouts as the product.
import { Rng } from "../../seed/demo/random";
import { planAssignments } from "../../dispatch/core/plan";
import { greedyAssign } from "../../dispatch/core/greedy";
import { batchedAssign, ORDER_AGE_WEIGHT } from "../../dispatch/core/batched";
import { isCandidate } from "../../dispatch/core/eligibility";
import { COVERAGE_RULE, SHORTAGE_RULE, suggestCoverageMove, suggestRegion, suggestShortRegion, type CoverageSettings, type RegionLoad } from "../../dispatch/core/hint";
import { adaptToScarcity } from "../../dispatch/core/scarcity";
import { shrunkRating } from "../../dispatch/core/rating";
import type { Assignment, ArrivalOf, DriverToDispatch, OrderRules, OrderToDispatch } from "../../dispatch/core/types";
import type { CityRoads, Place } from "./roads";

export interface Policy {
  name: string;
  kind: "pull" | "offers";
  /** FCFS: oldest order first, nearest car; PAIR: cheapest pair first; GREEDY/BATCHED: the product's rules. */
  rule?: "FCFS" | "PAIR" | "GREEDY" | "BATCHED";
  queue?: boolean;
  /** Batched: seconds of cost one second of the order's waiting takes off (production: ORDER_AGE_WEIGHT). */
  ageWeight?: number;
  fairnessWeight: number;
  radiusGrowth?: boolean;
  /** Idle drivers get region hints and follow them with this probability. */
  steer?: number;
  /** The hints' rule (hint.ts): "pressure", suggestRegion (the default); "shortage", suggestShortRegion with SHORTAGE_RULE; "coverage", suggestCoverageMove with COVERAGE_RULE. */
  steerRule?: "pressure" | "shortage" | "coverage";
  /** The coverage rule's settings (steerRule "coverage"; COVERAGE_RULE when unset). */
  coverage?: CoverageSettings;
  acceptanceWeight?: number;
  /** Seconds of cost a rating shortfall of 1 adds (server/dispatch/core/rating.ts). */
  ratingWeight?: number;
  chains: boolean;
  /** Under scarcity: the radius capped at this (km) and no chains (server/dispatch/core/scarcity.ts). */
  scarceRadiusKm?: number;
  /** Under deep scarcity (free orders at least four times the free cars): the cap instead (scarcity.ts). */
  deepScarceRadiusKm?: number;
}

export interface WorldSettings {
  acceptSeconds: number;
  attempts: number;
  radiusKm: number;
  /** The growing radius: start and step per minute (radiusGrowth policies). */
  radiusStartKm: number;
  radiusStepKm: number;
  batchSeconds: number;
  chainSeconds: number;
  /** Free drivers look at the free orders this often (the pull model and the radio). */
  lookSeconds: number;
  /** Idle drivers are given hints this often, once idle this long. */
  hintEverySeconds: number;
  /** Fare: pick-up plus per km, kopecks. */
  fareBase: number;
  farePerKm: number;
}

/** The shortage rule as measured: the last half hour's demand, ten minutes ahead, drives of up to ten minutes; hints to cars idle 3 minutes. */
export { SHORTAGE_RULE };

/** Production's settings (server/dispatch/demo-rules.ts and the DispatchSetting defaults). */
export const WORLD_DEFAULTS: WorldSettings = {
  acceptSeconds: 20,
  attempts: 3,
  radiusKm: 5,
  radiusStartKm: 2,
  radiusStepKm: 1,
  batchSeconds: 5,
  chainSeconds: 240,
  lookSeconds: 8,
  hintEverySeconds: 60,
  fareBase: 9900,
  farePerKm: 2500,
};

export interface Passenger {
  id: number;
  at: number;
  pickup: number;
  destination: number;
  /** Seconds the passenger waits for a driver to accept before giving up (lost). */
  patience: number;
  /** Seconds from acceptance the passenger waits for the car before cancelling (a long assigned wait). */
  assignedPatience: number;
  /** Seconds from the car's arrival to the passenger aboard. */
  boarding: number;
}

export interface DayPlan {
  passengers: Passenger[];
  driverStarts: number[];
  regionOfPlace: number[];
  /** Ordering minutes (the drivers' shift). */
  minutes: number;
}

type OrderPhase = "free" | "offered" | "radio" | "assigned" | "lost" | "cancelled";

interface SimOrder {
  p: Passenger;
  phase: OrderPhase;
  refused: Set<number>;
  attempts: number;
  waitSeconds: number | null;
}

interface SimDriver {
  id: number;
  place: number;
  /** Free from this second (busy until then). */
  freeAt: number;
  /** A chained order waits for the end of the trip. */
  bound: boolean;
  lastJobEnd: number;
  offer: { order: SimOrder; sent: number; answerAt: number; accept: boolean; chain: boolean } | null;
  moving: Drive | null;
  busySeconds: number;
  earnings: number;
  queueSince: number | null;
  nextLook: number;
  nextHint: number;
  offers: number;
  accepted: number;
  refuseShare: number;
  timeoutShare: number;
  rng: Rng;
  /** The driver's true mean stars (the passengers' ratings scatter around it) and the ratings so far. */
  quality: number;
  ratingSum: number;
  ratingCount: number;
  rateRng: Rng;
}

export interface DayResult {
  policy: string;
  orders: number;
  served: number;
  lost: number;
  cancelled: number;
  /** Wait of every order: served: to the car at the pickup; lost: the patience; cancelled: to the cancellation. */
  waitsAll: number[];
  waitsServed: number[];
  emptyKm: number;
  occupiedKm: number;
  steeringKm: number;
  offers: number;
  timeouts: number;
  utilisation: number;
  /** Kopecks per hour of the shift, per driver. */
  earningsPerHour: number[];
  /** The true mean stars of the driver of each served order, averaged: the ride quality passengers got. */
  servedRating: number;
}

function pairAssign(orders: readonly OrderToDispatch[], drivers: readonly DriverToDispatch[], arrival: ArrivalOf): Assignment[] {
  const pairs: Array<{ i: number; j: number; s: number }> = [];
  orders.forEach((o, i) =>
    drivers.forEach((d, j) => {
      const s = arrival(i, j);
      if (isCandidate(o, d, s)) pairs.push({ i, j, s: s! + d.busyForSeconds });
    }),
  );
  pairs.sort((a, b) => a.s - b.s || a.i - b.i || a.j - b.j);
  const usedO = new Set<number>();
  const usedD = new Set<number>();
  const out: Assignment[] = [];
  for (const { i, j, s } of pairs) {
    if (usedO.has(i) || usedD.has(j)) continue;
    usedO.add(i);
    usedD.add(j);
    const d = drivers[j]!;
    out.push({ orderId: orders[i]!.id, driverId: d.id, arrivalSeconds: Math.round(s), source: "AUTO", chain: d.busyForSeconds > 0 });
  }
  return out;
}

export function playDay(plan: DayPlan, roads: CityRoads, policy: Policy, seed: number, settings: WorldSettings = WORLD_DEFAULTS): DayResult {
  const n = roads.places.length;
  const secondsBetween = (a: number, b: number) => roads.seconds[a * n + b]!;
  const metresBetween = (a: number, b: number) => roads.metres[a * n + b]!;
  const rng = new Rng(seed).fork(`world:${policy.name}`);
  const drivers: SimDriver[] = plan.driverStarts.map((place, i) => {
    // Each driver's own answers, the same whatever the policy asks of them.
    const own = new Rng(seed).fork(`driver:${i}`);
    // Ratings on a stream of their own, so that the other draws stay as they were. A driver's quality is independent of how they answer offers.
    const rateRng = new Rng(seed).fork(`driver-rating:${i}`);
    const quality = rateRng.range(3.4, 5);
    let ratingSum = 0;
    const past = 20;
    for (let k = 0; k < past; k++) ratingSum += starsOf(quality, rateRng);
    return {
      quality,
      ratingSum,
      ratingCount: past,
      rateRng,
      id: i + 1,
      place,
      freeAt: 0,
      bound: false,
      lastJobEnd: 0,
      offer: null,
      moving: null,
      busySeconds: 0,
      earnings: 0,
      queueSince: 0,
      nextLook: Math.floor(own.range(0, settings.lookSeconds)),
      nextHint: settings.hintEverySeconds,
      offers: 0,
      accepted: 0,
      refuseShare: own.range(0, 0.16),
      timeoutShare: own.range(0, 0.08),
      rng: own,
    };
  });
  const rules: OrderRules = {
    mode: policy.queue ? "QUEUE" : "AUTO",
    radiusKm: settings.radiusKm,
    fairnessWeight: policy.fairnessWeight,
    minBalance: Number.NEGATIVE_INFINITY,
    chainSeconds: policy.chains ? settings.chainSeconds : 0,
    ...(policy.radiusGrowth ? { radiusStartKm: settings.radiusStartKm, radiusStepKm: settings.radiusStepKm } : {}),
    ...(policy.acceptanceWeight ? { acceptanceWeight: policy.acceptanceWeight } : {}),
    ...(policy.ratingWeight ? { ratingWeight: policy.ratingWeight } : {}),
  };
  const regions = [...new Set(plan.regionOfPlace)].sort((a, b) => a - b);
  // Each region's busiest place: where a steered driver heads.
  const regionTarget = new Map<number, number>();
  {
    const counts = new Map<number, number>();
    for (const p of plan.passengers) counts.set(p.pickup, (counts.get(p.pickup) ?? 0) + 1);
    for (const r of regions) {
      let best = -1;
      let bestCount = -1;
      plan.regionOfPlace.forEach((reg, place) => {
        const c = counts.get(place) ?? 0;
        if (reg === r && c > bestCount) {
          best = place;
          bestCount = c;
        }
      });
      regionTarget.set(r, best);
    }
  }
  const orders: SimOrder[] = [];
  const open: SimOrder[] = [];
  let next = 0;
  let emptyMetres = 0;
  let occupiedMetres = 0;
  let steeringMetres = 0;
  let offers = 0;
  let timeouts = 0;
  let servedQuality = 0;
  const shiftEnd = plan.minutes * 60;
  const end = shiftEnd + 3600;
  let dirty = true;
  const pendingChains: Array<{ d: SimDriver; o: SimOrder; at: number }> = [];
  const isFree = (d: SimDriver, now: number) => d.freeAt <= now && d.offer === null && !d.bound;

  const routeTo = (d: SimDriver, place: number, now: number): Way => {
    const m = d.moving;
    if (!m) return { seconds: secondsBetween(d.place, place), metres: metresBetween(d.place, place), via: d.place };
    return wayFromDrive(m, now, place, secondsBetween, metresBetween);
  };

  /** Where the dispatcher sees the car: on a steering drive, that share of the way along (straight between its ends). */
  const positionOf = (d: SimDriver, now: number): Place => {
    const m = d.moving;
    const a = roads.places[m ? m.from : d.place]!;
    if (!m) return a;
    const b = roads.places[m.to]!;
    const k = shareDriven(m, now);
    return { lat: a.lat + (b.lat - a.lat) * k, lon: a.lon + (b.lon - a.lon) * k, x: a.x + (b.x - a.x) * k, y: a.y + (b.y - a.y) * k };
  };

  const assign = (d: SimDriver, o: SimOrder, now: number) => {
    // From a steering drive: the way to the pickup is the rest of the drive or the way back; the part driven so far is steering (empty).
    const way = routeTo(d, o.p.pickup, now);
    if (d.moving) {
      const driven = d.moving.metres * shareDriven(d.moving, now);
      steeringMetres += driven;
      emptyMetres += driven;
      d.moving = null;
    }
    d.place = way.via;
    const start = Math.max(now, d.freeAt);
    const toPickup = way.seconds;
    o.phase = "assigned";
    if (toPickup > o.p.assignedPatience + (start - now)) {
      // The passenger gives up on a car that takes too long: the car turns back after driving part of the way.
      o.phase = "cancelled";
      const driven = Math.max(0, now + o.p.assignedPatience - start);
      emptyMetres += way.metres * Math.min(1, driven / Math.max(1, toPickup));
      o.waitSeconds = now + o.p.assignedPatience - o.p.at;
      d.busySeconds += driven;
      d.freeAt = start + driven;
      d.lastJobEnd = d.freeAt;
      d.queueSince = null;
      d.bound = false;
      return;
    }
    const trip = secondsBetween(o.p.pickup, o.p.destination);
    o.waitSeconds = start + toPickup - o.p.at;
    const done = start + toPickup + o.p.boarding + trip;
    d.busySeconds += done - start;
    d.freeAt = done;
    d.lastJobEnd = done;
    d.bound = false;
    emptyMetres += way.metres;
    const tripMetres = metresBetween(o.p.pickup, o.p.destination);
    occupiedMetres += tripMetres;
    d.place = o.p.destination;
    d.queueSince = null;
    d.earnings += settings.fareBase + (settings.farePerKm * tripMetres) / 1000;
    servedQuality += d.quality;
    // A third of the passengers rate the trip (the tracking link's stars).
    if (d.rateRng.chance(0.3)) {
      d.ratingSum += starsOf(d.quality, d.rateRng);
      d.ratingCount += 1;
    }
  };

  let now = 0;
  for (; now <= end; now++) {
    while (next < plan.passengers.length && plan.passengers[next]!.at <= now) {
      const o: SimOrder = { p: plan.passengers[next]!, phase: "free", refused: new Set(), attempts: 0, waitSeconds: null };
      orders.push(o);
      open.push(o);
      next += 1;
      dirty = true;
    }
    if (next >= plan.passengers.length && open.length === 0 && pendingChains.length === 0 && now > shiftEnd) break;
    // Passengers give up in any state before a driver accepted (an offer out to a driver too, as the live passenger and a real one do);
    // drivers arrive where they were steered; freed drivers join the queue.
    for (const o of open) {
      if ((o.phase === "free" || o.phase === "radio" || o.phase === "offered") && now - o.p.at >= o.p.patience) {
        o.phase = "lost";
        o.waitSeconds = o.p.patience;
      }
    }
    // The product on a cancel during SENT_TO_DRIVER: the driver is FREE at once (moveOrder) and the live offer withdrawn at the next sweep (round.ts).
    for (const d of drivers) {
      if (d.offer?.order.phase !== "lost") continue;
      d.offer = null;
      dirty = true;
    }
    for (const d of drivers) {
      if (d.moving && d.moving.arriveAt <= now) {
        steeringMetres += d.moving.metres;
        emptyMetres += d.moving.metres;
        d.place = d.moving.to;
        d.moving = null;
        d.queueSince = now;
      }
      if (d.freeAt === now) dirty = true;
      if (d.freeAt <= now && d.queueSince === null && !d.bound) d.queueSince = now;
    }
    // Answers to offers.
    for (const d of drivers) {
      const offer = d.offer;
      if (!offer || offer.answerAt > now) continue;
      d.offer = null;
      dirty = true;
      if (offer.order.phase !== "offered") continue;
      if (offer.accept) {
        d.accepted += 1;
        if (offer.chain && d.freeAt > now) {
          // Bound: the order is the driver's; the car comes after the trip.
          d.bound = true;
          const o = offer.order;
          o.phase = "assigned";
          pendingChains.push({ d, o, at: now });
        } else assign(d, offer.order, now);
      } else {
        if (offer.answerAt - offer.sent >= settings.acceptSeconds) timeouts += 1;
        offer.order.refused.add(d.id);
        offer.order.phase = offer.order.attempts >= settings.attempts ? "radio" : "free";
      }
    }
    // Chained orders start when the trip ends.
    for (let k = pendingChains.length - 1; k >= 0; k--) {
      const c = pendingChains[k]!;
      if (c.d.freeAt <= now) {
        pendingChains.splice(k, 1);
        c.d.bound = false;
        assign(c.d, c.o, now);
      }
    }
    for (let k = open.length - 1; k >= 0; k--) {
      const ph = open[k]!.phase;
      if (ph === "lost" || ph === "assigned" || ph === "cancelled") open.splice(k, 1);
    }
    if (policy.kind === "pull") pull(open.filter((o) => o.phase === "free"), now);
    else {
      pull(open.filter((o) => o.phase === "radio"), now);
      const batchDue = policy.rule !== "BATCHED" || now % settings.batchSeconds === 0;
      const free = open.filter((o) => o.phase === "free");
      // A round decides the same when nothing changed; every 5 s it runs anyway (ages and radii grow).
      if (batchDue && free.length > 0 && (dirty || now % 5 === 0)) offerRound(free, now);
      dirty = false;
    }
    if (policy.steer && now % settings.hintEverySeconds === 0) steer(now);
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
        if (straightMetres(positionOf(d, now), o.p.pickup) > settings.radiusKm * 1000) continue;
        const s = routeTo(d, o.p.pickup, now).seconds;
        if (!best || s < best.s) best = { o, s };
      }
      if (!best) continue;
      // The same drivers as under offers: one who would refuse the order passes it over (and does not come back to it).
      if (d.rng.float() < d.refuseShare) {
        best.o.refused.add(d.id);
        continue;
      }
      claimed.add(best.o);
      assign(d, best.o, now);
    }
  }

  function straightMetres(pa: Place, b: number): number {
    const pb = roads.places[b]!;
    return Math.hypot(pa.x - pb.x, pa.y - pb.y);
  }

  function steer(now: number): void {
    const idle = drivers.filter((d) => isFree(d, now));
    const free = idle.filter((d) => !d.moving);
    const since = now - SHORTAGE_RULE.windowMinutes * 60;
    const demand = new Map<number, number>();
    const recentPickups = new Map<number, number[]>();
    for (let k = orders.length - 1; k >= 0 && orders[k]!.p.at >= since; k--) {
      const r = plan.regionOfPlace[orders[k]!.p.pickup]!;
      demand.set(r, (demand.get(r) ?? 0) + 1);
      recentPickups.set(r, [...(recentPickups.get(r) ?? []), orders[k]!.p.pickup]);
    }
    const supply = new Map<number, number>();
    // A car on its way counts where it is going.
    for (const d of idle) {
      const r = plan.regionOfPlace[d.moving ? d.moving.to : d.place]!;
      supply.set(r, (supply.get(r) ?? 0) + 1);
    }
    if (policy.steerRule === "coverage") {
      coverageSteer(now, idle, free);
      return;
    }
    const loadsNow = (): RegionLoad[] => regions.map((r) => ({ regionId: r, demand: demand.get(r) ?? 0, freeDrivers: supply.get(r) ?? 0 }));
    if (policy.steerRule === "shortage") {
      for (const d of rng.shuffle(free)) {
        if (now - Math.max(d.lastJobEnd, d.queueSince ?? 0) < SHORTAGE_RULE.minIdleSeconds) continue;
        const here = plan.regionOfPlace[d.place]!;
        // Toward the nearest of the region's recent pickups: the fewest empty kilometres to where its demand is.
        const nearest = new Map<number, { to: number; seconds: number }>();
        const hint = suggestShortRegion(loadsNow(), here, SHORTAGE_RULE, (regionId) => {
          let best: { to: number; seconds: number } | null = null;
          for (const p of recentPickups.get(regionId) ?? []) {
            const seconds = secondsBetween(d.place, p);
            if (!best || seconds < best.seconds) best = { to: p, seconds };
          }
          if (best) nearest.set(regionId, best);
          return best?.seconds ?? null;
        });
        if (!hint || !d.rng.chance(policy.steer!)) continue;
        const to = nearest.get(hint.regionId)!.to;
        supply.set(here, (supply.get(here) ?? 1) - 1);
        supply.set(hint.regionId, (supply.get(hint.regionId) ?? 0) + 1);
        d.moving = { from: d.place, to, start: now, arriveAt: now + Math.round(hint.seconds), metres: metresBetween(d.place, to) };
      }
      return;
    }
    for (const d of free) {
      if (now - Math.max(d.lastJobEnd, d.queueSince ?? 0) < settings.hintEverySeconds) continue;
      const here = plan.regionOfPlace[d.place]!;
      const hint = suggestRegion(loadsNow(), here);
      if (!hint || !d.rng.chance(policy.steer!)) continue;
      // Toward the region's demand: the pickup of one of its recent orders (a hot spot's pull, not one point for all).
      const recent = recentPickups.get(hint.regionId) ?? [];
      const to = recent.length ? recent[Math.floor(d.rng.float() * recent.length)]! : regionTarget.get(hint.regionId)!;
      if (to < 0 || to === d.place) continue;
      supply.set(here, (supply.get(here) ?? 1) - 1);
      supply.set(hint.regionId, (supply.get(hint.regionId) ?? 0) + 1);
      d.moving = { from: d.place, to, start: now, arriveAt: now + Math.round(secondsBetween(d.place, to)), metres: metresBetween(d.place, to) };
    }
  }

  function coverageSteer(now: number, idle: SimDriver[], free: SimDriver[]): void {
    const rule = policy.coverage ?? COVERAGE_RULE;
    // Cars short: an order has waited without a car; every free car is needed where it stands.
    if (open.some((o) => (o.phase === "free" || o.phase === "radio") && now - o.p.at > rule.backlogSeconds)) return;
    const since = now - rule.windowMinutes * 60;
    const pickups: number[] = [];
    for (let k = orders.length - 1; k >= 0 && orders[k]!.p.at >= since; k--) pickups.push(orders[k]!.p.pickup);
    // A car on its way counts where it is going.
    const carPlace = idle.map((d) => (d.moving ? d.moving.to : d.place));
    const index = new Map(idle.map((d, i) => [d, i]));
    const placeOf = (k: number) => (k < carPlace.length ? carPlace[k]! : pickups[k - carPlace.length]!);
    for (const d of rng.shuffle(free)) {
      if (now - Math.max(d.lastJobEnd, d.queueSince ?? 0) < rule.minIdleSeconds) continue;
      const me = index.get(d)!;
      const move = suggestCoverageMove(carPlace.length, me, pickups.length, (a, b) => secondsBetween(placeOf(a), placeOf(b)), rule);
      if (!move || !d.rng.chance(policy.steer!)) continue;
      const to = pickups[move.pickup]!;
      if (to === d.place) continue;
      carPlace[me] = to;
      d.moving = { from: d.place, to, start: now, arriveAt: now + Math.round(move.seconds), metres: metresBetween(d.place, to) };
    }
  }

  function offerRound(free: SimOrder[], now: number): void {
    const pool = drivers.filter((d) => (isFree(d, now) || (policy.chains && !d.bound && d.offer === null && d.freeAt - now <= settings.chainSeconds)));
    if (pool.length === 0) return;
    const raw: OrderToDispatch[] = free.map((o) => ({
      id: o.p.id,
      serviceId: 1,
      regionId: plan.regionOfPlace[o.p.pickup]!,
      lat: roads.places[o.p.pickup]!.lat,
      lon: roads.places[o.p.pickup]!.lon,
      waitingSeconds: now - o.p.at,
      neededOptions: [],
      refusedBy: o.refused,
      rules,
    }));
    const queues = new Map<number, SimDriver[]>();
    for (const d of pool) {
      if (d.freeAt > now) continue;
      const r = plan.regionOfPlace[d.place]!;
      queues.set(r, [...(queues.get(r) ?? []), d]);
    }
    const place = new Map<number, { regionId: number; position: number }>();
    for (const [regionId, list] of queues) {
      list.sort((a, b) => (a.queueSince ?? 0) - (b.queueSince ?? 0) || a.id - b.id).forEach((d, position) => place.set(d.id, { regionId, position }));
    }
    const dInputs: DriverToDispatch[] = pool.map((d) => ({
      id: d.id,
      lat: positionOf(d, now).lat,
      lon: positionOf(d, now).lon,
      serviceIds: [1],
      options: [],
      balance: 0,
      idleSeconds: Math.max(0, now - d.lastJobEnd),
      queue: policy.queue ? (place.get(d.id) ?? null) : null,
      busyForSeconds: Math.max(0, d.freeAt - now),
      // Acceptance known to the dispatcher: the driver's own record, with a prior of 9 accepted out of 10.
      acceptanceRate: (d.accepted + 9) / (d.offers + 10),
      rating: shrunkRating(d.ratingSum, d.ratingCount),
    }));
    const inputs = adaptToScarcity(raw, dInputs, policy.scarceRadiusKm ?? 0, policy.deepScarceRadiusKm ?? 0);
    const arrival: ArrivalOf = (i, j) => routeTo(pool[j]!, free[i]!.p.pickup, now).seconds;
    let assignments: Assignment[];
    if (policy.rule === "PAIR") assignments = pairAssign(inputs, dInputs, arrival);
    else if (policy.rule === "FCFS") assignments = greedyAssign(inputs, dInputs, arrival);
    else if (policy.rule === "BATCHED" && !policy.queue) assignments = batchedAssign(inputs, dInputs, arrival, new Set(), undefined, policy.ageWeight ?? ORDER_AGE_WEIGHT);
    else assignments = planAssignments(inputs, dInputs, arrival, policy.rule === "BATCHED" ? "BATCHED" : "GREEDY", policy.ageWeight);
    const byId = new Map(free.map((o) => [o.p.id, o]));
    const driverById = new Map(pool.map((d) => [d.id, d]));
    for (const a of assignments) {
      const o = byId.get(a.orderId)!;
      const d = driverById.get(a.driverId)!;
      o.phase = "offered";
      o.attempts += 1;
      d.offers += 1;
      offers += 1;
      const r = d.rng.float();
      const refuse = r < d.refuseShare;
      const timeout = !refuse && r < d.refuseShare + d.timeoutShare;
      const answer = timeout ? settings.acceptSeconds : Math.round(d.rng.range(3, 12));
      d.offer = { order: o, sent: now, answerAt: now + answer, accept: !refuse && !timeout, chain: a.chain };
    }
  }

  const served = orders.filter((o) => o.phase === "assigned" && o.waitSeconds !== null);
  // Earnings per hour over the drivers' shift.
  const hours = plan.minutes / 60;
  return {
    policy: policy.name,
    orders: orders.length,
    served: served.length,
    lost: orders.filter((o) => o.phase === "lost" || o.phase === "free" || o.phase === "radio" || o.phase === "offered" || (o.phase === "assigned" && o.waitSeconds === null)).length,
    cancelled: orders.filter((o) => o.phase === "cancelled").length,
    waitsAll: orders.map((o) => o.waitSeconds ?? o.p.patience),
    waitsServed: served.map((o) => o.waitSeconds!),
    emptyKm: emptyMetres / 1000,
    occupiedKm: occupiedMetres / 1000,
    steeringKm: steeringMetres / 1000,
    offers,
    timeouts,
    // Busy time over the whole day played (the shift and the drain after it).
    utilisation: drivers.reduce((sum, d) => sum + d.busySeconds, 0) / (drivers.length * Math.max(1, now, ...drivers.map((d) => d.freeAt))),
    earningsPerHour: drivers.map((d) => d.earnings / hours),
    servedRating: servedQuality / Math.max(1, served.length),
  };
}

/** A steering drive: from place to place, its start and arrival seconds, its length. */
export interface Drive {
  from: number;
  to: number;
  start: number;
  arriveAt: number;
  metres: number;
}

/** The way from a car to a place, and the drive's end it goes by. */
export interface Way {
  seconds: number;
  metres: number;
  via: number;
}

/** The share of a drive done by now (0..1). */
export function shareDriven(m: Drive, now: number): number {
  return Math.min(1, (now - m.start) / Math.max(1, m.arriveAt - m.start));
}

/**
 * From a car on a steering drive to a place: on to the drive's end or back
 * to its start, whichever is sooner — the same for the dispatcher (the car's
 * reported position) and for the car.
 */
export function wayFromDrive(m: Drive, now: number, place: number, seconds: (a: number, b: number) => number, metres: (a: number, b: number) => number): Way {
  const share = shareDriven(m, now);
  const total = m.arriveAt - m.start;
  const on = { seconds: (1 - share) * total + seconds(m.to, place), metres: (1 - share) * m.metres + metres(m.to, place), via: m.to };
  const back = { seconds: share * total + seconds(m.from, place), metres: share * m.metres + metres(m.from, place), via: m.from };
  return on.seconds <= back.seconds ? on : back;
}

/** One passenger's stars for a driver of this quality: around it, whole stars 1..5. */
function starsOf(quality: number, rng: Rng): number {
  return Math.min(5, Math.max(1, Math.round(quality + rng.range(-1, 1))));
}
