// The live arm of the comparison: the in-process model's seeded day (the
// same passengers at the same places and moments, with the same patience,
// the same drivers at the same starting places with the same answer
// behaviour) played against a started server over HTTP and its database.
// Passengers order through the dispatch API; drivers act through the driver
// app interface: they report positions as a phone does, read the offer
// addressed to them on the offer stream (GET /offer/stream, as the driver's
// app does; the long poll of GET /offer holds one of the server's places for
// requests in flight while it waits), accept, refuse or let it
// time out, look at the radio's orders (GET /offers) and take one, move the
// order (arrived, aboard) and complete it. A few more drivers go on shift and
// then go silent (no call, the position frozen): the server's liveness rules
// must keep them out of every offer.
//
// Time: the day runs `speedUp` times faster than real time. The server runs on
// the wall clock, so the caller scales the server's time settings (the
// offer's deadline, the batch period, the liveness thresholds, the fairness
// weight) by the same factor; travel times are the model's own (the same
// route matrix), so the physics of the two arms are the same and what
// differs is the product's dispatch, offers and races against the model's.
import { Rng } from "../../seed/demo/random";
import type { CityRoads } from "../compare/roads";
import type { DayPlan, Passenger } from "../compare/world";
import { DriverPhone, LiveCallError, PassengerApi } from "./clients";

export interface LiveDayOptions {
  baseUrl: string;
  apiKey: string;
  provisioningKey: string;
  serviceId: number;
  seed: number;
  plan: DayPlan;
  roads: CityRoads;
  /** Simulated seconds per real second. */
  speedUp: number;
  /** Call signs of the drivers who play the plan's drivers (index i plays plan.driverStarts[i]). */
  callSigns: string[];
  /** Call signs of the silent drivers: on shift at a place, then no call at all. */
  silentCallSigns: string[];
  /** Where the silent drivers stand (places); default: places drawn from the seed. */
  silentPlaces?: number[];
  /** Real seconds between the silent drivers' last call and the first order (longer than the server's liveness thresholds). */
  warmUpSeconds: number;
  /** The radio is looked at this often (simulated s; the model's drivers: 8 s), within this radius (km). */
  lookSeconds: number;
  radiusKm: number;
  /** Simulated seconds after the last order beyond which an order without an outcome counts as unknown. */
  drainSeconds: number;
  log?: (line: string) => void;
}

export type Outcome = "served" | "lost" | "cancelled" | "unknown";

export interface LiveOrder {
  uuid: string;
  passenger: number;
  outcome: Outcome;
  /** Seconds from the order to the car at the pickup (lost: the patience; cancelled: to the cancellation). */
  wait: number;
  acceptedBy: string | null;
  viaRadio: boolean;
}

export interface LiveDayResult {
  orders: LiveOrder[];
  /** Orders the passengers could not place (a refused or failed call). */
  notPlaced: number;
  /** How late the scheduled actions ran, simulated seconds: the mean and the worst (the machine keeping up). */
  lag: { meanSeconds: number; p95Seconds: number; maxSeconds: number; samples: number };
  /** Simulated seconds from an order's planned moment until the server had taken it (two calls). */
  placed: { meanSeconds: number; p95Seconds: number; maxSeconds: number };
  /** Real milliseconds per call (long polls included: they wait up to 5 s by design). */
  callMs: { median: number; p95: number; max: number };
  wallSeconds: number;
  simulatedSeconds: number;
  failedCalls: Record<string, number>;
  /** Live drivers the server set away (after offers let time out in a row) at the end. */
  awayAtEnd: string[];
  calls: number;
}

interface Ride {
  p: Passenger;
  uuid: string;
  acceptedAt: number | null;
  arrivedAt: number | null;
  outcome: Outcome | null;
  wait: number;
  driver: LiveDriver | null;
  viaRadio: boolean;
}

interface OfferSeen {
  offer_id: number;
  kind: string;
  seconds_left: number;
  order: { uuid: string };
}

interface Move {
  from: number;
  to: number;
  start: number;
  end: number;
}

type LiveDriver = {
  callSign: string;
  phone: DriverPhone;
  rng: Rng;
  refuseShare: number;
  timeoutShare: number;
  place: number;
  move: Move | null;
  busy: boolean;
  riding: boolean;
  /** Offers already answered or let go (GET /offer shows an unanswered one until its deadline). */
  seen: Set<number>;
  /** Radio orders this driver passed over (never taken afterwards). */
  passed: Set<string>;
  answering: boolean;
  bound: string | null;
  cancelled: boolean;
};

export async function playLiveDay(o: LiveDayOptions): Promise<LiveDayResult> {
  const n = o.roads.places.length;
  const secondsBetween = (a: number, b: number) => o.roads.seconds[a * n + b]!;
  const place = (i: number) => o.roads.places[i]!;
  const passengers = new PassengerApi(o.baseUrl, o.apiKey);
  const provisioning = new DriverPhone(o.baseUrl, o.provisioningKey);
  const failed = new Map<string, number>();
  let calls = 0;
  const fail = (error: unknown) => {
    const code = error instanceof LiveCallError ? error.code : "EXCEPTION";
    failed.set(code, (failed.get(code) ?? 0) + 1);
    if ((failed.get(code) ?? 0) <= 3) o.log?.(`live: call failed (${code}): ${error instanceof Error ? error.message : String(error)}`);
  };
  const durations: number[] = [];
  const counted = async <T>(p: Promise<T>): Promise<T> => {
    calls += 1;
    const started = performance.now();
    try {
      return await p;
    } finally {
      durations.push(performance.now() - started);
    }
  };

  // ------------------------------------------------------------ the clock
  let t0 = 0;
  let stopping = false;
  const simNow = () => ((Date.now() - t0) / 1000) * o.speedUp;
  // The day's sleeps end at once when the day stops (the loops are not waited out: a standing phone sleeps 30 simulated s).
  const sleepers = new Set<() => void>();
  const sleepReal = (ms: number) =>
    new Promise<void>((r) => {
      if (stopping) return r();
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        r();
      };
      const timer = setTimeout(wake, Math.max(0, ms));
      sleepers.add(wake);
    });
  const stopSleeping = () => {
    for (const wake of [...sleepers]) wake();
  };
  const sleepSim = (s: number) => sleepReal((s * 1000) / o.speedUp);
  const sleepUntil = (s: number) => sleepSim(s - simNow());
  const lags: number[] = [];
  const late = (scheduled: number) => lags.push(Math.max(0, simNow() - scheduled));

  // ------------------------------------------------------------ the drivers' phones
  const keyOf = async (callSign: string) => counted(provisioning.issue(callSign));
  const drivers: LiveDriver[] = [];
  for (let i = 0; i < o.callSigns.length; i += 8) {
    const batch = await Promise.all(
      o.callSigns.slice(i, i + 8).map(async (callSign, k) => {
        const index = i + k;
        // The model's own stream of this driver (world.ts: the look phase, then the refusal and timeout shares).
        const own = new Rng(o.seed).fork(`driver:${index}`);
        own.range(0, o.lookSeconds);
        const refuseShare = own.range(0, 0.16);
        const timeoutShare = own.range(0, 0.08);
        const d: LiveDriver = {
          callSign,
          phone: new DriverPhone(o.baseUrl, await keyOf(callSign)),
          rng: own,
          refuseShare,
          timeoutShare,
          place: o.plan.driverStarts[index]!,
          move: null,
          busy: false,
          riding: false,
          seen: new Set(),
          passed: new Set(),
          answering: false,
          bound: null,
          cancelled: false,
        };
        return d;
      }),
    );
    drivers.push(...batch);
  }
  const silent = await Promise.all(o.silentCallSigns.map(async (callSign) => new DriverPhone(o.baseUrl, await keyOf(callSign))));
  // Silent drivers: on shift at a place of the day, then their app dies.
  const silentRng = new Rng(o.seed).fork("live:silent");
  await Promise.all(
    silent.map(async (phone, k) => {
      const drawn = Math.floor(silentRng.float() * n);
      const at = place(o.silentPlaces?.[k] ?? drawn);
      await counted(phone.post("shift/start", { lat: at.lat, lon: at.lon, speed: 0, bearing: 0 }));
    }),
  );
  const silentSince = Date.now();
  await Promise.all(
    drivers.map(async (d) => {
      const at = place(d.place);
      await counted(d.phone.post("shift/start", { lat: at.lat, lon: at.lon, speed: 0, bearing: 0 }));
    }),
  );

  const rides = new Map<string, Ride>();
  let notPlaced = 0;
  /** Simulated seconds from an order's planned moment to its uuid in hand (the estimate and the order over HTTP). */
  const placedLate: number[] = [];

  const positionOf = (d: LiveDriver, now: number) => {
    const m = d.move;
    if (!m) return place(d.place);
    const share = Math.min(1, Math.max(0, (now - m.start) / Math.max(1, m.end - m.start)));
    const a = place(m.from);
    const b = place(m.to);
    return { lat: a.lat + (b.lat - a.lat) * share, lon: a.lon + (b.lon - a.lon) * share };
  };

  /** Drives to a place over the model's travel time; stops early when `abort` says so (the passenger cancelled). */
  const drive = async (d: LiveDriver, to: number, abort: () => boolean): Promise<boolean> => {
    const start = simNow();
    const end = start + secondsBetween(d.place, to);
    d.move = { from: d.place, to, start, end };
    while (simNow() < end && !stopping) {
      if (abort()) {
        const share = (simNow() - start) / Math.max(1, end - start);
        d.place = share >= 0.5 ? to : d.move.from;
        d.move = null;
        return false;
      }
      await sleepSim(Math.min(2, end - simNow()));
    }
    d.place = to;
    d.move = null;
    return !stopping;
  };

  const freeAgain = (d: LiveDriver) => {
    d.busy = false;
    d.riding = false;
    d.cancelled = false;
  };

  /** The order is the driver's: to the pickup, the passenger aboard, to the destination, completed. */
  const carry = async (d: LiveDriver, uuid: string): Promise<void> => {
    const ride = rides.get(uuid);
    d.busy = true;
    if (!ride) {
      // Not one of the day's orders (none should be): give it back.
      await counted(d.phone.post("orders/reject", { uuid, reason: "not in the scenario" })).catch(fail);
      freeAgain(d);
      return;
    }
    ride.driver = d;
    const arrived = await drive(d, ride.p.pickup, () => ride.outcome !== null);
    if (!arrived || ride.outcome !== null) return freeAgain(d);
    const at = simNow();
    try {
      await counted(d.phone.post("orders/status", { uuid, status: "AWAITING_CLIENT" }));
    } catch (error) {
      fail(error);
      return freeAgain(d);
    }
    if (ride.outcome === null) {
      ride.arrivedAt = at;
      ride.outcome = "served";
      ride.wait = at - ride.p.at;
    }
    await sleepSim(ride.p.boarding);
    if (stopping) return freeAgain(d);
    try {
      await counted(d.phone.post("orders/status", { uuid, status: "IN_PROCESS" }));
      d.riding = true;
      await drive(d, ride.p.destination, () => false);
      await counted(d.phone.post("orders/complete", { uuid }));
    } catch (error) {
      fail(error);
    }
    d.riding = false;
    const next = d.bound;
    d.bound = null;
    if (next && !stopping) return carry(d, next);
    freeAgain(d);
  };

  const accepted = (d: LiveDriver, uuid: string, viaRadio: boolean) => {
    const ride = rides.get(uuid);
    if (ride && ride.acceptedAt === null) {
      ride.acceptedAt = simNow();
      ride.viaRadio = viaRadio;
      ride.driver = d;
    }
  };

  const streams = new AbortController();

  /** One offer as the model's driver answers it: accept, refuse (after 3–12 s) or let it time out. */
  const answer = (d: LiveDriver, offer: OfferSeen) => {
    if (d.seen.has(offer.offer_id)) return;
    d.seen.add(offer.offer_id);
    const r = d.rng.float();
    const refuse = r < d.refuseShare;
    const timeout = !refuse && r < d.refuseShare + d.timeoutShare;
    if (timeout) return;
    const answerAt = simNow() + Math.round(d.rng.range(3, 12));
    const { uuid } = offer.order;
    const kind = offer.kind;
    d.answering = true;
    void (async () => {
      await sleepUntil(answerAt);
      if (stopping) {
        d.answering = false;
        return;
      }
      try {
        if (refuse) {
          await counted(d.phone.post("offer/refuse", { uuid, reason: d.rng.pick(["далеко", "не успеваю", "пробка"]) }));
        } else {
          const ride = rides.get(uuid);
          const from = kind === "CHAIN" && d.move ? d.move.to : d.place;
          const minutes = ride ? Math.max(1, Math.ceil(secondsBetween(from, ride.p.pickup) / 60)) : 5;
          await counted(d.phone.post("offer/accept", { uuid, arrival_minutes: minutes }));
          accepted(d, uuid, false);
          if (kind === "CHAIN") d.bound = uuid;
          else if (kind === "LIVE") void carry(d, uuid);
        }
      } catch (error) {
        fail(error);
      } finally {
        d.answering = false;
      }
    })();
  };

  /** The offer stream, as the driver's app reads it (GET /offer/stream), reconnected when the server closes it. */
  const offers = async (d: LiveDriver) => {
    while (!stopping) {
      try {
        calls += 1;
        await d.phone.stream((event, data) => {
          const offer = event === "offer" ? ((data as { offer?: OfferSeen | null }).offer ?? null) : null;
          if (offer && !stopping) answer(d, offer);
        }, streams.signal);
      } catch (error) {
        if (stopping) return;
        fail(error);
        await sleepReal(1000);
      }
    }
  };

  /** The radio: a free driver looks at the free orders near it every lookSeconds and takes the nearest it would not refuse. */
  const radio = async (d: LiveDriver) => {
    await sleepSim(d.rng.range(0, o.lookSeconds));
    while (!stopping) {
      await sleepSim(o.lookSeconds);
      if (d.busy || d.answering || stopping) continue;
      let list: Array<{ uuid: string; version: number }> = [];
      try {
        list = ((await counted(d.phone.get("offers", { radius_km: o.radiusKm, limit: 10 }))).offers ?? []) as typeof list;
      } catch (error) {
        fail(error);
        continue;
      }
      const pick = list.find((x) => !d.passed.has(x.uuid) && rides.has(x.uuid));
      if (!pick || d.busy) continue;
      if (d.rng.float() < d.refuseShare) {
        d.passed.add(pick.uuid);
        continue;
      }
      const ride = rides.get(pick.uuid)!;
      d.busy = true;
      try {
        await counted(d.phone.post("orders/accept", { uuid: pick.uuid, arrival_minutes: Math.max(1, Math.ceil(secondsBetween(d.place, ride.p.pickup) / 60)), version: pick.version }));
      } catch (error) {
        d.busy = false;
        if (!(error instanceof LiveCallError && (error.code === "CONFLICT" || error.code === "GONE" || error.code === "FORBIDDEN_MOVE"))) fail(error);
        continue;
      }
      accepted(d, pick.uuid, true);
      void carry(d, pick.uuid);
    }
  };

  /** Positions as a phone sends them: every 4 s while moving, every 30 s while standing. */
  const positions = async (d: LiveDriver) => {
    while (!stopping) {
      const now = simNow();
      const at = positionOf(d, now);
      try {
        await counted(d.phone.post("position", { lat: Math.round(at.lat * 1e6) / 1e6, lon: Math.round(at.lon * 1e6) / 1e6, speed: d.move ? 30 : 0, bearing: 0 }));
      } catch (error) {
        fail(error);
      }
      await sleepSim(d.move ? 4 : 30);
    }
  };

  // ------------------------------------------------------------ the passengers
  const passenger = async (p: Passenger, index: number): Promise<void> => {
    await sleepUntil(p.at);
    late(p.at);
    if (stopping) return;
    const from = place(p.pickup);
    const to = place(p.destination);
    const phone = `7902${String((o.seed % 100) * 10_000 + index).padStart(7, "0")}`;
    let uuid: string;
    try {
      uuid = await counted(passengers.order(from, to, phone, o.serviceId));
    } catch (error) {
      fail(error);
      notPlaced += 1;
      return;
    }
    placedLate.push(simNow() - p.at);
    const ride: Ride = { p, uuid, acceptedAt: null, arrivedAt: null, outcome: null, wait: 0, driver: null, viaRadio: false };
    rides.set(uuid, ride);
    // Gives up when no driver accepted within the patience; cancels when the accepted car has not come within the assigned patience.
    while (!stopping && ride.outcome === null) {
      const now = simNow();
      if (ride.acceptedAt === null && now >= p.at + p.patience) {
        try {
          await counted(passengers.cancel(uuid, "долго ждать"));
          if (ride.acceptedAt === null || ride.outcome === null) {
            ride.outcome = "lost";
            ride.wait = p.patience;
          }
          late(p.at + p.patience);
        } catch (error) {
          // Taken meanwhile: the driver's reply is on its way.
          if (!(error instanceof LiveCallError && error.code === "FORBIDDEN_MOVE")) fail(error);
          await sleepSim(2);
        }
        continue;
      }
      if (ride.acceptedAt !== null && ride.arrivedAt === null && now >= ride.acceptedAt + p.assignedPatience) {
        try {
          await counted(passengers.cancel(uuid, "машина едет слишком долго"));
          if (ride.outcome === null) {
            ride.outcome = "cancelled";
            ride.wait = ride.acceptedAt + p.assignedPatience - p.at;
          }
        } catch (error) {
          if (!(error instanceof LiveCallError && error.code === "FORBIDDEN_MOVE")) fail(error);
          await sleepSim(2);
        }
        continue;
      }
      await sleepSim(1);
    }
  };

  // ------------------------------------------------------------ the day
  // The silent drivers' app must be silent longer than the server's thresholds before the first order.
  await sleepReal(o.warmUpSeconds * 1000 - (Date.now() - silentSince));
  t0 = Date.now();
  o.log?.(`live: ${drivers.length} drivers and ${silent.length} silent ones on shift; ${o.plan.passengers.length} orders over ${o.plan.minutes} min at ×${o.speedUp}`);
  const loops = drivers.flatMap((d) => [offers(d), radio(d), positions(d)]);
  const progress = setInterval(() => {
    const all = [...rides.values()];
    o.log?.(`live: ${Math.round(simNow() / 60)} min: ${all.length} orders, ${all.filter((r) => r.outcome === "served").length} served, ${all.filter((r) => r.outcome === "lost").length} lost, busy ${drivers.filter((d) => d.busy).length}, mean lag ${(lags.reduce((a, b) => a + b, 0) / Math.max(1, lags.length)).toFixed(1)} s`);
  }, 60_000);
  const lastAt = o.plan.passengers.at(-1)?.at ?? 0;
  const everyone = Promise.all(o.plan.passengers.map((p, i) => passenger(p, i)));
  const deadline = sleepUntil(lastAt + o.drainSeconds).then(() => undefined);
  await Promise.race([everyone, deadline]);
  const simulatedSeconds = simNow();
  stopping = true;
  streams.abort();
  stopSleeping();
  clearInterval(progress);
  o.log?.(`live: every order has its outcome at ${Math.round(simulatedSeconds)} simulated s; stopping the phones`);
  await Promise.race([Promise.all(loops), new Promise<void>((r) => setTimeout(r, 30_000).unref())]);
  o.log?.("live: phones stopped");

  const awayAtEnd: string[] = [];
  for (const d of drivers) {
    try {
      const me = (await counted(d.phone.get("me"))).driver as { dispatch?: { away?: boolean } };
      if (me.dispatch?.away) awayAtEnd.push(d.callSign);
    } catch (error) {
      fail(error);
    }
  }
  const sorted = [...lags].sort((a, b) => a - b);
  const placedSorted = [...placedLate].sort((a, b) => a - b);
  const ms = [...durations].sort((a, b) => a - b);
  return {
    orders: [...rides.values()].map((r) => ({
      uuid: r.uuid,
      passenger: r.p.id,
      outcome: r.outcome ?? "unknown",
      wait: r.outcome ? r.wait : r.p.patience,
      acceptedBy: r.driver?.callSign ?? null,
      viaRadio: r.viaRadio,
    })),
    notPlaced,
    lag: {
      meanSeconds: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
      p95Seconds: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
      maxSeconds: sorted.at(-1) ?? 0,
      samples: sorted.length,
    },
    placed: {
      meanSeconds: placedSorted.reduce((a, b) => a + b, 0) / Math.max(1, placedSorted.length),
      p95Seconds: placedSorted[Math.floor(placedSorted.length * 0.95)] ?? 0,
      maxSeconds: placedSorted.at(-1) ?? 0,
    },
    callMs: { median: ms[Math.floor(ms.length / 2)] ?? 0, p95: ms[Math.floor(ms.length * 0.95)] ?? 0, max: ms.at(-1) ?? 0 },
    wallSeconds: (Date.now() - t0) / 1000,
    simulatedSeconds,
    failedCalls: Object.fromEntries(failed),
    awayAtEnd,
    calls,
  };
}
