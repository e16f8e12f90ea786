// One simulated driver: plays a driver app against /driver-app/v1. Goes on
// and off shift, drives (positions every few seconds), takes offers the
// engine hands out, confirms or refuses orders a dispatcher sent, drives to
// the passenger, waits, carries them and completes the order; keeps its view
// in step with the server by reading its orders whenever a call was refused
// or its outcome is unknown (the server is the truth, never the simulator).
import type { Rng } from "../seed/demo/random";
import { CallError, type DriverAppClient } from "./http";
import { Trip, haversineMetres, pathLength, route, type GeoPoint } from "./geo";
import type { Engine } from "./engine";
import { RIDING_STATES, DRIVER_OFFERED_STATES, DRIVER_EN_ROUTE_STATES } from "../orders/states";
import { randomUUID } from "node:crypto";

type Phase = "off" | "idle" | "offered" | "toPickup" | "waiting" | "riding";

/** An order as the driver app interface shows it (the fields the simulator reads). */
export interface AppOrder {
  id: number;
  uuid: string;
  version: number;
  state: string;
  status_code: number;
  pickup: { lat: number | null; lon: number | null };
  destination: { lat: number | null; lon: number | null } | null;
  pre_order_time: string | null;
  distance_km?: number;
}

interface Job {
  uuid: string;
  state: string;
  pickup: GeoPoint;
  destination: GeoPoint;
  /** Simulated second of an advance order's pick-up time. */
  advanceAt: number | null;
}

// The state groups are the state machine's own (server/orders/states.ts); the
// simulator reads states as the driver app gives them (strings).
const OFFERED: readonly string[] = DRIVER_OFFERED_STATES;
const TO_PICKUP: readonly string[] = DRIVER_EN_ROUTE_STATES;
const RIDING: readonly string[] = RIDING_STATES;
const isAdvanceState = (state: string) => state.startsWith("PREORDER_");

function phaseOf(state: string): Phase | undefined {
  if (OFFERED.includes(state)) return "offered";
  if (TO_PICKUP.includes(state) || isAdvanceState(state)) return "toPickup";
  if (state.startsWith("AWAITING_CLIENT")) return "waiting";
  if (RIDING.includes(state)) return "riding";
  return undefined;
}

export class SimDriver {
  phase: Phase = "off";
  /** The driver's state as the server last told it. */
  serverState = "OFFLINE";
  pos: GeoPoint;
  private trip: Trip | null = null;
  private parkedUntil = 0;
  job: Job | null = null;
  attached: Job[] = [];
  nextShiftAt = Number.POSITIVE_INFINITY;
  shiftEndsAt = Number.POSITIVE_INFINITY;
  nextOffersAt = 0;
  private nextPositionAt = 0;
  private nextSyncAt = 0;
  private decideAt = 0;
  private refuseOffered = false;
  private boardAt = 0;
  private waitUntil = 0;
  private noShow = false;
  private rejectAt: number | null = null;
  private nextOfferCheckAt = 0;
  /** When a free driver next asks for a region hint (GET /hint). */
  private nextHintAt = 0;
  /** The offer this driver chose to let time out: read again from GET /offer, it stays unanswered until its deadline. */
  private ignoredOfferId: number | null = null;
  /** An offer of automatic dispatch being considered: answered at `at` (never, for a driver who lets it time out). */
  private pending: { uuid: string; kind: string; at: number; answer: "accept" | "refuse" | "ignore"; order: AppOrder } | null = null;

  constructor(
    private readonly engine: Engine,
    readonly callSign: string,
    private readonly client: DriverAppClient,
    readonly rng: Rng,
    start: GeoPoint,
  ) {
    this.pos = start;
  }

  get onShift(): boolean {
    return this.phase !== "off";
  }

  get speed(): number {
    return this.trip && !this.trip.arrived ? this.trip.speed : 0;
  }

  // ------------------------------------------------------------ set-up

  /** When the driver goes on shift: soon (one already on shift carries on), or later in the day. */
  init(now: number, serverState: string, onShiftShare: number): void {
    this.serverState = serverState;
    const startsNow = serverState !== "OFFLINE" || this.rng.chance(onShiftShare);
    this.nextShiftAt = startsNow ? now + this.rng.range(0, 40) : now + this.rng.range(15, 90) * 60;
  }

  // ------------------------------------------------------------ the tick

  async tick(now: number, dt: number): Promise<void> {
    try {
      if (!this.onShift) {
        if (now >= this.nextShiftAt && !this.engine.stopping) await this.startShift(now);
        return;
      }
      this.drive(dt);
      if (now >= this.nextSyncAt) await this.sync(now);
      await this.answerOffers(now);
      await this.act(now);
      if (this.onShift && now >= this.nextPositionAt) await this.report(now);
    } catch (error) {
      this.failed(error);
    }
  }

  private failed(error: unknown): void {
    this.engine.failure(error);
    // Refused or unknown outcome: read the truth from the server next tick.
    this.nextSyncAt = this.engine.now;
  }

  private drive(dt: number): void {
    if (!this.trip) return;
    this.trip.advance(dt);
    this.pos = this.trip.position;
  }

  /**
   * Sets off at once on the simple route, and switches to the route along the
   * roads when the server's answer comes (normally before the next tick;
   * not at all when the car has moved on meanwhile or the city has no roads).
   */
  private startTrip(to: GeoPoint, speed: number): void {
    const trip = new Trip(route(this.rng, this.pos, to), speed);
    this.trip = trip;
    this.roadRoute(this.pos, to)
      .then((road) => {
        if (road && this.trip === trip && trip.metresDone === 0) this.trip = road;
      })
      .catch((error: unknown) => this.failed(error));
  }

  /**
   * A trip along the roads at their speeds (the route's own average), asked
   * of the driver app's `route` as a real app's navigation would; undefined
   * when a point is off the roads.
   */
  private async roadRoute(from: GeoPoint, to: GeoPoint): Promise<Trip | undefined> {
    const reply = await this.client.get("route", { from_lat: from.lat, from_lon: from.lon, to_lat: to.lat, to_lon: to.lon });
    const points = reply.points as Array<[number, number]> | undefined;
    const metres = Number(reply.metres);
    const seconds = Number(reply.seconds);
    if (reply.on_roads !== true || !points || points.length < 2 || !(seconds > 0)) return undefined;
    return new Trip(points.map(([lat, lon]) => ({ lat, lon })), (metres / seconds) * 3.6);
  }

  private async startShift(now: number): Promise<void> {
    await this.payInIfOwing();
    const reply = await this.client.post("shift/start", { lat: this.pos.lat, lon: this.pos.lon, speed: 0, bearing: 0 });
    this.serverState = String(reply.state);
    this.phase = "idle";
    const [min, max] = this.engine.options.shiftMinutes;
    this.shiftEndsAt = now + this.rng.range(min, max) * 60;
    this.nextSyncAt = now;
    this.nextPositionAt = now;
    this.nextOffersAt = now;
    this.engine.log(`driver ${this.callSign} on shift`, "debug");
  }

  /**
   * A driver in the red pays in before the shift, as drivers do at a payment
   * terminal (which posts the payment through the dispatch API's
   * `POST /api/driver/balance`): every finished trip debits the service's
   * commission, so without it a long demo ran its drivers below the dispatch
   * rule's minimum balance and automatic dispatch stopped offering them
   * anything. Rounded up to whole 500-rouble notes; a failure only skips it.
   */
  private async payInIfOwing(): Promise<void> {
    try {
      const { balance } = await this.engine.dispatch.get("driver/balance", { driver_code: this.callSign });
      if (typeof balance !== "number" || balance >= 0) return;
      const amount = Math.ceil(-balance / 500) * 500 + 500;
      await this.engine.dispatch.post("driver/balance", {
        driver_code: this.callSign,
        txn_id: `sim-terminal-${this.callSign}-${randomUUID()}`,
        amount,
        reason: "payment terminal",
      });
      this.engine.log(`driver ${this.callSign} paid in ${amount} ₽`, "debug");
    } catch (error) {
      this.engine.log(`driver ${this.callSign} could not pay in: ${error instanceof Error ? error.message : String(error)}`, "debug");
    }
  }

  private async endShift(now: number): Promise<void> {
    await this.client.post("shift/end");
    this.phase = "off";
    this.serverState = "OFFLINE";
    this.trip = null;
    const [min, max] = this.engine.options.breakMinutes;
    this.nextShiftAt = now + this.rng.range(min, max) * 60;
    this.shiftEndsAt = Number.POSITIVE_INFINITY;
    this.engine.log(`driver ${this.callSign} off shift`, "debug");
  }

  private async report(now: number): Promise<void> {
    const moving = this.speed > 0;
    this.nextPositionAt = now + (moving ? this.engine.positionEverySeconds : Math.max(30, this.engine.tickSeconds));
    const bearing = Math.round(this.trip?.bearing ?? 0) % 360;
    const here = { lat: Math.round(this.pos.lat * 1e6) / 1e6, lon: Math.round(this.pos.lon * 1e6) / 1e6, speed: Math.round(this.speed) };
    const reply = await this.client.post("position", { ...here, bearing });
    this.serverState = String(reply.state);
  }

  // ------------------------------------------------------------ keeping in step with the server

  private jobOf(order: AppOrder): Job {
    const pickup = order.pickup.lat !== null && order.pickup.lon !== null ? { lat: order.pickup.lat, lon: order.pickup.lon } : this.pos;
    const dst = order.destination;
    const destination =
      dst && dst.lat !== null && dst.lon !== null ? { lat: dst.lat, lon: dst.lon } : this.engine.city.near(this.rng, pickup, 3000) ?? pickup;
    const known = this.engine.orders.get(order.uuid);
    const advanceAt = known?.advanceAt ?? (order.pre_order_time ? this.engine.simOfWall(order.pre_order_time) : null);
    return { uuid: order.uuid, state: order.state, pickup, destination, advanceAt };
  }

  /** Reads the driver's open orders and follows them. */
  async sync(now: number): Promise<void> {
    this.nextSyncAt = now + Math.max(this.engine.tickSeconds, this.phase === "idle" ? 30 : 120);
    const orders = ((await this.client.get("orders")).orders ?? []) as AppOrder[];
    const byUuid = new Map(orders.map((o) => [o.uuid, o]));
    this.attached = orders
      .filter((o) => isAdvanceState(o.state) && o.uuid !== this.job?.uuid)
      .map((o) => {
        const job = this.attached.find((j) => j.uuid === o.uuid) ?? this.jobOf(o);
        job.state = o.state;
        return job;
      });
    // An attached advance order whose confirmation is requested: confirmed (a few refuse).
    for (const o of orders.filter((x) => x.state === "PREORDER_CONFIRM_REQUESTED")) {
      try {
        if (this.rng.chance(this.engine.options.driverRejectShare)) await this.client.post("offer/refuse", { uuid: o.uuid, reason: "не успею к этому времени" });
        else await this.client.post("orders/status", { uuid: o.uuid, status: "PREORDER_CONFIRM_SUCCESSFUL" });
      } catch (error) {
        this.failed(error);
      }
    }
    if (this.job) {
      const current = byUuid.get(this.job.uuid);
      if (!current) {
        // Cancelled by the passenger, or taken away by a dispatcher.
        this.engine.checkSoon(this.job.uuid);
        this.job = null;
        this.toIdle();
      } else {
        this.job.state = current.state;
        const phase = phaseOf(current.state);
        if (phase && phase !== this.phase) this.enter(phase, now);
      }
    }
    if (!this.job) {
      const held = orders.find((o) => !isAdvanceState(o.state) && phaseOf(o.state) !== undefined);
      if (held) {
        this.job = this.jobOf(held);
        this.engine.onMove(held.uuid, held.state, held.status_code, this.callSign);
        this.enter(phaseOf(held.state)!, now);
      }
    }
  }

  private toIdle(): void {
    this.phase = "idle";
    this.trip = null;
    this.rejectAt = null;
    this.parkedUntil = 0;
  }

  private jobSpeed(): number {
    return this.rng.range(24, 44);
  }

  private enter(phase: Phase, now: number): void {
    const job = this.job;
    this.phase = phase;
    if (!job) return this.toIdle();
    if (phase === "offered") {
      this.decideAt = now + this.rng.range(5, 25);
      this.refuseOffered = this.rng.chance(this.engine.options.driverRejectShare * 3);
      // An offer this driver decided to let time out: no answer from the order list either.
      if (this.pending?.uuid === job.uuid) this.decideAt = this.pending.answer === "ignore" ? Number.POSITIVE_INFINITY : this.pending.at + 60;
    }
    if (phase === "toPickup") this.startTrip(job.pickup, this.jobSpeed());
    if (phase === "waiting") {
      this.trip = null;
      const passenger = this.engine.orders.get(job.uuid);
      const ready = Math.max(now, job.advanceAt ?? now);
      this.noShow = passenger?.noShow ?? this.rng.chance(0.03);
      this.boardAt = ready + (passenger?.boardDelay ?? this.rng.range(30, 180));
      this.waitUntil = ready + 5 * 60;
    }
    if (phase === "riding") this.startTrip(job.destination, this.jobSpeed());
  }

  // ------------------------------------------------------------ what the driver does

  private async act(now: number): Promise<void> {
    if (this.phase === "idle") return this.idle(now);
    const job = this.job;
    if (!job) return this.toIdle();
    if (this.phase === "offered" && now >= this.decideAt) {
      if (this.refuseOffered) return this.refuse(job, "далеко ехать");
      const minutes = this.arrivalMinutes(job.pickup);
      if (await this.move(job, "CONFIRMED", { arrival_minutes: minutes })) this.enter("toPickup", now);
      return;
    }
    if (this.phase === "toPickup") {
      if (this.rejectAt !== null && now >= this.rejectAt && !isAdvanceState(job.state)) return this.refuse(job, "передумал, не успеваю");
      if (this.trip?.arrived ?? true) {
        if (await this.move(job, "AWAITING_CLIENT")) this.enter("waiting", now);
      }
      return;
    }
    if (this.phase === "waiting") {
      if (this.noShow && now >= this.waitUntil) {
        if (await this.move(job, "DONE_CALL_FAILED", { reason: "клиент не вышел" })) this.finish();
      } else if (!this.noShow && now >= this.boardAt) {
        if (await this.move(job, "IN_PROCESS")) this.enter("riding", now);
      }
      return;
    }
    if (this.phase === "riding" && (this.trip?.arrived ?? true)) {
      const reply = await this.client.post("orders/complete", { uuid: job.uuid });
      const order = reply.order as AppOrder;
      this.engine.onMove(order.uuid, order.state, order.status_code, this.callSign);
      this.finish();
    }
  }

  private finish(): void {
    this.job = null;
    this.toIdle();
    this.nextOffersAt = this.engine.now;
  }

  private arrivalMinutes(to: GeoPoint): number {
    const metres = pathLength(route(this.rng, this.pos, to));
    return Math.max(1, Math.ceil((metres / 1000 / 32) * 60));
  }

  private async move(job: Job, status: string, extra: Record<string, unknown> = {}): Promise<boolean> {
    try {
      const reply = await this.client.post("orders/status", { uuid: job.uuid, status, ...extra });
      const order = reply.order as AppOrder;
      job.state = order.state;
      this.engine.onMove(order.uuid, order.state, order.status_code, this.callSign);
      return true;
    } catch (error) {
      this.failed(error);
      return false;
    }
  }

  private async refuse(job: Job, reason: string): Promise<void> {
    try {
      const reply = await this.client.post("orders/reject", { uuid: job.uuid, reason });
      const order = reply.order as AppOrder;
      this.engine.onMove(order.uuid, order.state, order.status_code, null, "rejected");
      this.finish();
      // Not the same order again at once.
      this.nextOffersAt = this.engine.now + 60;
    } catch (error) {
      // Refused (the order changed meanwhile): carry on with it rather than insist.
      this.rejectAt = null;
      this.refuseOffered = false;
      this.failed(error);
    }
  }

  /** Minutes of driving to a point at a usual speed, plus a margin. */
  private leadSeconds(to: GeoPoint): number {
    return (haversineMetres(this.pos, to) * 1.3) / (30 / 3.6) + 5 * 60;
  }

  private async idle(now: number): Promise<void> {
    const due = this.attached.find((j) => j.advanceAt !== null && now >= j.advanceAt - this.leadSeconds(j.pickup));
    if (due) {
      this.attached = this.attached.filter((j) => j !== due);
      this.job = due;
      this.enter("toPickup", now);
      return;
    }
    if (now >= this.shiftEndsAt && this.attached.length === 0) {
      try {
        await this.endShift(now);
      } catch (error) {
        this.failed(error);
      }
      return;
    }
    // Cruise or stand: a free car moves about its part of town, or follows a region hint now and then.
    if (!this.trip || this.trip.arrived) {
      if (now < this.parkedUntil) return;
      this.trip = null;
      if (await this.followHint(now)) return;
      if (this.rng.chance(0.4)) {
        this.parkedUntil = now + this.rng.range(60, 300);
        return;
      }
      const target = this.engine.city.near(this.rng, this.pos, 2000);
      if (target) this.startTrip(target, this.rng.range(14, 30));
    }
  }

  /**
   * Asks for a region hint at most once a simulated minute while free and
   * standing, and follows it with the setting's probability: drives toward
   * its target (as a driver who tapped "route" would). True when it set off.
   */
  private async followHint(now: number): Promise<boolean> {
    const share = this.engine.options.hintFollowShare;
    if (share <= 0 || now < this.nextHintAt) return false;
    this.nextHintAt = now + 60;
    const hint = (await this.client.get("hint")).hint as { target: GeoPoint } | null;
    if (!hint || !this.rng.chance(share)) return false;
    this.startTrip({ lat: hint.target.lat, lon: hint.target.lon }, this.rng.range(20, 35));
    return true;
  }

  // ------------------------------------------------------------ offers of automatic dispatch

  /**
   * Reads the offer addressed to the driver (a real app has it pushed on
   * GET /offer/stream; the simulated one polls GET /offer as its fallback)
   * and answers it after a few seconds: most accept, some refuse with a
   * reason, a few let it time out.
   */
  private async answerOffers(now: number): Promise<void> {
    const p = this.pending;
    if (p) {
      if (now < p.at || p.answer === "ignore") {
        if (now > p.at + 120) this.pending = null;
        return;
      }
      this.pending = null;
      if (p.answer === "refuse") {
        try {
          const reply = await this.client.post("offer/refuse", { uuid: p.uuid, reason: this.rng.pick(["далеко", "не успеваю", "пробка"]) });
          const order = reply.order as AppOrder;
          this.engine.onMove(order.uuid, order.state, order.status_code, null, "rejected");
        } catch (error) {
          this.failed(error);
        }
        return;
      }
      await this.acceptOffered(p.order, p.kind, now);
      return;
    }
    const canChain = this.phase === "riding";
    if ((this.phase !== "idle" && !canChain) || now < this.nextOfferCheckAt) return;
    this.nextOfferCheckAt = now + Math.max(2, Math.min(this.engine.tickSeconds, 4));
    const offer = (await this.client.get("offer")).offer as { offer_id: number; kind: string; order: AppOrder } | null;
    if (!offer || offer.offer_id === this.ignoredOfferId) return;
    const r = this.rng.float();
    const refuseShare = this.engine.options.driverRejectShare * 3;
    const answer = r < refuseShare ? "refuse" : r < refuseShare + this.engine.options.driverIgnoreShare ? "ignore" : "accept";
    if (answer === "ignore") this.ignoredOfferId = offer.offer_id;
    this.pending = { uuid: offer.order.uuid, kind: offer.kind, at: now + this.rng.range(3, 12), answer, order: offer.order };
  }

  private async acceptOffered(offered: AppOrder, kind: string, now: number): Promise<void> {
    const job = this.jobOf(offered);
    const trip = new Trip(route(this.rng, kind === "CHAIN" && this.job ? this.job.destination : this.pos, job.pickup), this.jobSpeed());
    const minutes = Math.max(1, Math.ceil(trip.minutesLeft()));
    let order: AppOrder;
    try {
      order = (await this.client.post("offer/accept", { uuid: offered.uuid, arrival_minutes: minutes })).order as AppOrder;
    } catch (error) {
      this.failed(error);
      return;
    }
    job.state = order.state;
    this.engine.onMove(order.uuid, order.state, order.status_code, this.callSign);
    if (kind === "ADVANCE") {
      this.attached.push(job);
      return;
    }
    if (kind === "CHAIN") {
      // Bound after the current trip: the next sync after completing it picks it up.
      this.nudge();
      return;
    }
    this.job = job;
    this.phase = "toPickup";
    this.serverState = "BUSY";
    this.trip = trip;
    void this.roadRoute(this.pos, job.pickup)
      .then((road) => {
        if (road && this.trip === trip && trip.metresDone === 0) this.trip = road;
      })
      .catch(() => undefined);
    this.rejectAt = this.rng.chance(this.engine.options.driverRejectShare) ? now + this.rng.range(20, 120) : null;
  }

  /** Whether the driver looks at offers now (the engine hands them out). */
  wantsOffers(now: number): boolean {
    if (this.phase !== "idle" || this.serverState !== "FREE" || now < this.nextOffersAt || now >= this.shiftEndsAt) return false;
    // An advance order of one's own coming up: stay free for it.
    return !this.attached.some((j) => j.advanceAt !== null && j.advanceAt - now < 45 * 60);
  }

  async fetchOffers(now: number, radiusKm: number): Promise<AppOrder[]> {
    this.nextOffersAt = now + this.engine.offersEverySeconds;
    try {
      const reply = await this.client.get("offers", { radius_km: radiusKm, limit: 10, advance: this.attached.length === 0 ? "yes" : "no" });
      this.serverState = String(reply.state);
      return (reply.offers ?? []) as AppOrder[];
    } catch (error) {
      this.failed(error);
      return [];
    }
  }

  /** Takes an offer; false when another driver was faster (or the call failed). */
  async take(offer: AppOrder, now: number): Promise<boolean> {
    const job = this.jobOf(offer);
    const advance = isAdvanceState(offer.state);
    const speed = this.jobSpeed();
    const points = route(this.rng, this.pos, job.pickup);
    const road = await this.roadRoute(this.pos, job.pickup).catch(() => undefined);
    const trip = road ?? new Trip(points, speed);
    const minutes = Math.max(1, Math.ceil(trip.minutesLeft()));
    let order: AppOrder;
    try {
      order = (await this.client.post("orders/accept", { uuid: offer.uuid, arrival_minutes: minutes, version: offer.version })).order as AppOrder;
    } catch (error) {
      // Another driver (or another exchange participant) was faster.
      if (error instanceof CallError && (error.code === "CONFLICT" || error.code === "GONE")) return false;
      // Not for this driver (or not for anyone of ours: the exchange refused the purchase): look elsewhere.
      if (error instanceof CallError && error.code === "FORBIDDEN") this.engine.unwanted.add(offer.uuid);
      this.failed(error);
      return false;
    }
    job.state = order.state;
    this.engine.onMove(order.uuid, order.state, order.status_code, this.callSign);
    if (advance) {
      this.attached.push(job);
      return true;
    }
    this.job = job;
    this.phase = "toPickup";
    this.serverState = "BUSY";
    this.trip = trip;
    this.rejectAt = this.rng.chance(this.engine.options.driverRejectShare) ? now + this.rng.range(20, 120) : null;
    return true;
  }

  /** Tells the driver to read its orders at the next tick (a push message of a real app). */
  nudge(): void {
    this.nextSyncAt = this.engine.now;
  }
}
