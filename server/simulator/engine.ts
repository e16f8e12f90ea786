// The simulator: a living city played through the product's own interfaces.
// Simulated drivers use the driver app interface (/driver-app/v1),
// simulated passengers the dispatch API (/api: estimate, then order from the
// token; some cancel, some order in advance, some need moderation), and a
// second exchange participant may trade on /exchange. It never touches the
// database: what the console, the exchange and the benchmarks see is real
// traffic.
//
// Time is virtual: the engine advances a simulated clock in ticks of
// `tickSeconds` and paces each tick to take tickSeconds / speedUp real
// seconds (when the server keeps up; the lag is reported). Every decision
// comes from seeded random streams (passengers, each driver, the engine), so
// the same seed plays the same day, as far as the server answers the same.
//
// The same engine is the load generator of the benchmarks: a steady order
// rate, drivers serving the orders, counts per minute of orders created,
// assigned, completed and cancelled, and the lost and stuck orders (zero).
import { Rng, hashString } from "../seed/demo/random";
import { CallError, DispatchClient, DriverAppClient, type TransportOptions } from "./http";
import { SimCity, type Address, type MapReply } from "./city";
import { SimDriver } from "./driver";
import { clockText, Stats, type Summary } from "./stats";

export interface SimulationOptions {
  /** Where the product is, e.g. http://127.0.0.1:3000 */
  baseUrl: string;
  /** A dispatch API key: the passengers' orders are made with it. */
  apiKey: string;
  /** The driver app provisioning key (issues the simulated drivers' app keys). */
  provisioningKey: string;
  /** How many drivers to play (the first of the city by call sign). */
  drivers?: number;
  /** Passenger orders per simulated minute (a steady rate). */
  ordersPerMinute?: number;
  /** Simulated seconds per real second. */
  speedUp?: number;
  seed?: number;
  /** Radius in km around the city's centre where drivers and passengers live. */
  cityKm?: number;
  /** The city (default: the city of the first service). */
  cityId?: number;
  /** Simulated seconds per tick (default: the speed-up, between 1 and 60). */
  tickSeconds?: number;
  moderationShare?: number;
  advanceShare?: number;
  advanceLeadMinutes?: [number, number];
  /** Minutes a passenger waits for a driver to take the order before cancelling. */
  patienceMinutes?: [number, number];
  /** Share of passengers who cancel after a driver took the order. */
  cancelShare?: number;
  /** Share of passengers who do not come out. */
  noShowShare?: number;
  /** Share of orders a driver gives back after taking them. */
  driverRejectShare?: number;
  shiftMinutes?: [number, number];
  breakMinutes?: [number, number];
  /** Share of the drivers who go on shift at the start (the rest later). */
  onShiftShare?: number;
  /** Print a report line every this many simulated minutes (0: never). */
  reportEveryMinutes?: number;
  /** Radius in km of the offers a free driver looks at. */
  offerRadiusKm?: number;
  log?: (line: string) => void;
  verbose?: boolean;
  /** Other actors run every tick after the drivers (the exchange participant). */
  participants?: Participant[];
  /** HTTPS: an extra authority to trust, or (loopback only) no certificate checks. */
  transport?: TransportOptions;
}

export type ResolvedOptions = Required<Omit<SimulationOptions, "cityId" | "log" | "participants" | "transport">> & Pick<SimulationOptions, "cityId" | "transport">;

export const DEFAULT_OPTIONS: Omit<ResolvedOptions, "baseUrl" | "apiKey" | "provisioningKey" | "tickSeconds"> = {
  drivers: 40,
  ordersPerMinute: 2,
  speedUp: 1,
  seed: 1,
  cityKm: 8,
  moderationShare: 0.05,
  advanceShare: 0.1,
  advanceLeadMinutes: [20, 90],
  patienceMinutes: [8, 20],
  cancelShare: 0.05,
  noShowShare: 0.03,
  driverRejectShare: 0.03,
  shiftMinutes: [180, 480],
  breakMinutes: [20, 60],
  onShiftShare: 0.85,
  reportEveryMinutes: 5,
  offerRadiusKm: 4,
  verbose: false,
};

/** Another actor of the simulated city (the second exchange participant). */
export interface Participant {
  tick: (engine: Engine) => Promise<void>;
  /** Unfinished work the drain waits for. */
  open?: () => number;
  report?: () => string;
}

/** An order as the simulator follows it. */
export interface SimOrder {
  uuid: string;
  /** Created by the simulated passengers (others: seeded, console, API clients). */
  ours: boolean;
  createdAt: number;
  advanceAt: number | null;
  state: string;
  code: number;
  /** The call sign of the driver holding it. */
  driver: string | null;
  boarded: boolean;
  final: boolean;
  lost: boolean;
  lastPolled: number;
  giveUpAt: number;
  hardDeadline: number;
  stuckAt: number;
  cancelAfterAssign: number | null;
  cancelAt: number | null;
  noShow: boolean;
  boardDelay: number;
}

const HOLDING = new Set([
  "SENT_TO_DRIVER",
  "RECEIVED_BY_DRIVER",
  "CONFIRMED",
  "CONFIRMED_CLIENT_NOTIFIED",
  "BOUND",
  "AWAITING_CLIENT",
  "AWAITING_CLIENT_NOTIFIED",
  "AWAITING_CLIENT_LONG",
  "IN_PROCESS",
  "AWAITING_PAYMENT",
  "PREORDER_ATTACHED",
  "PREORDER_ATTACHED_NOTIFIED",
  "PREORDER_CONFIRM_REQUESTED",
  "PREORDER_CONFIRM_SUCCESSFUL",
]);

function utcText(at: Date): string {
  return at.toISOString().slice(0, 19).replace("T", " ");
}

export class Engine {
  readonly options: ResolvedOptions;
  readonly tickSeconds: number;
  readonly positionEverySeconds: number;
  readonly offersEverySeconds: number;
  readonly dispatch: DispatchClient;
  readonly stats = new Stats();
  readonly orders = new Map<string, SimOrder>();
  readonly drivers: SimDriver[] = [];
  /** Offers the server refused to give our drivers (FORBIDDEN): not offered again. */
  readonly unwanted = new Set<string>();
  city!: SimCity;
  serviceIds: number[] = [];
  /** Simulated seconds since the start. */
  now = 0;
  stopping = false;
  creating = true;
  private readonly rng: Rng;
  private readonly passengers: Rng;
  private credit: number;
  private lagMs = 0;
  private lostCount = 0;
  /** Simulated seconds during which passengers ordered (the load phase, before a drain). */
  private loadSeconds = 0;
  private wallStarted = 0;
  private sleeper: { timer: ReturnType<typeof setTimeout>; resolve: () => void } | undefined;
  private readonly byCallSign = new Map<string, SimDriver>();
  private readonly logged = new Map<string, number>();

  constructor(options: SimulationOptions) {
    const merged = { ...DEFAULT_OPTIONS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) } as ResolvedOptions &
      Pick<SimulationOptions, "log" | "participants">;
    const tick = options.tickSeconds ?? Math.min(60, Math.max(1, Math.round(merged.speedUp)));
    this.options = { ...merged, tickSeconds: tick };
    this.tickSeconds = tick;
    this.positionEverySeconds = Math.max(4, tick);
    this.offersEverySeconds = Math.max(8, tick);
    this.dispatch = new DispatchClient(options.baseUrl, options.apiKey, options.transport);
    const root = new Rng(this.options.seed >>> 0 || hashString("simulator"));
    this.rng = root.fork("engine");
    this.passengers = root.fork("passengers");
    this.credit = this.passengers.float();
  }

  get participants(): Participant[] {
    return (this.options as SimulationOptions).participants ?? [];
  }

  get minute(): number {
    return Math.floor(this.now / 60);
  }

  log(line: string, level: "info" | "debug" = "info"): void {
    if (level === "debug" && !this.options.verbose) return;
    const out = (this.options as SimulationOptions).log;
    out?.(`simulator ${clockText(this.now)} ${line}`);
  }

  /** A call that failed: counted by code; the first few of each code are logged. */
  failure(error: unknown): void {
    const code = error instanceof CallError ? error.code : "EXCEPTION";
    this.stats.error(code, this.minute);
    const seen = (this.logged.get(code) ?? 0) + 1;
    this.logged.set(code, seen);
    if (seen <= 3 || this.options.verbose) this.log(`call failed (${code}): ${error instanceof Error ? error.message : String(error)}`);
  }

  /** Real time of a simulated moment, at the current pace. */
  wallOfSim(sim: number): Date {
    return new Date(Date.now() + ((sim - this.now) * 1000) / this.options.speedUp);
  }

  simOfWall(iso: string): number {
    return this.now + ((Date.parse(iso) - Date.now()) / 1000) * this.options.speedUp;
  }

  // ------------------------------------------------------------ set-up

  async setup(): Promise<void> {
    const o = this.options;
    const services = ((await this.dispatch.get("services")).services ?? []) as Array<{ id: number; city_id?: number }>;
    const cityId = o.cityId ?? services[0]?.city_id;
    if (cityId === undefined) throw new Error("the dispatch has no services: nothing to simulate");
    this.serviceIds = services.filter((s) => s.city_id === cityId).map((s) => s.id);
    const listed = ((await this.dispatch.get("drivers", { city_id: cityId })).drivers ?? []) as Array<{ code: string }>;
    const callSigns = listed
      .map((d) => d.code)
      .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
      .slice(0, o.drivers);
    if (callSigns.length === 0) throw new Error(`the city ${cityId} has no drivers: nothing to simulate`);

    // The simulated drivers' apps get their keys the way real ones would.
    const provisioning = new DriverAppClient(o.baseUrl, o.provisioningKey, o.transport);
    const keys = new Map<string, string>();
    for (let i = 0; i < callSigns.length; i += 8) {
      await Promise.all(
        callSigns.slice(i, i + 8).map(async (callSign) => {
          const issued = await provisioning.post("keys", { call_sign: callSign });
          keys.set(callSign, String(issued.app_key));
        }),
      );
    }
    const clients = callSigns.map((callSign) => new DriverAppClient(o.baseUrl, keys.get(callSign)!, o.transport));
    const map = (await clients[0]!.get("map")) as unknown as MapReply;
    this.city = SimCity.fromMap(map, o.cityKm);

    const root = new Rng(o.seed >>> 0 || hashString("simulator"));
    for (let i = 0; i < callSigns.length; i += 8) {
      const batch = await Promise.all(
        callSigns.slice(i, i + 8).map(async (callSign, k) => {
          const me = (await clients[i + k]!.get("me")).driver as { state: string; position: { lat: number | null; lon: number | null } };
          return { callSign, me, client: clients[i + k]! };
        }),
      );
      for (const { callSign, me, client } of batch) {
        const rng = root.fork(`driver:${callSign}`);
        const seen = me.position.lat !== null && me.position.lon !== null ? { lat: me.position.lat, lon: me.position.lon } : null;
        // A car outside the simulated area appears in it when its shift starts (or drives in with its order).
        const start: Address | { lat: number; lon: number } = seen && (this.city.contains(seen) || me.state === "BUSY") ? seen : this.city.any(rng);
        const driver = new SimDriver(this, callSign, client, rng, { lat: start.lat, lon: start.lon });
        driver.init(this.now, me.state, o.onShiftShare);
        this.drivers.push(driver);
        this.byCallSign.set(callSign, driver);
      }
    }
    this.log(
      `${this.drivers.length} drivers, ${o.ordersPerMinute} orders/min, speed-up ${o.speedUp}, seed ${o.seed}, ` +
        `${this.city.name} within ${o.cityKm} km (${this.city.addresses.length} addresses)`,
    );
  }

  // ------------------------------------------------------------ running

  /** Runs for `minutes` simulated minutes (or until stop()). */
  async run(minutes?: number): Promise<void> {
    const until = minutes === undefined ? Number.POSITIVE_INFINITY : this.now + minutes * 60;
    if (!this.wallStarted) this.wallStarted = Date.now();
    while (!this.stopping && this.now < until) await this.step();
  }

  /** Stops creating orders and runs until every order of the passengers is final (or maxMinutes passed). */
  async drain(maxMinutes = 180): Promise<void> {
    this.creating = false;
    const until = this.now + maxMinutes * 60;
    if (!this.wallStarted) this.wallStarted = Date.now();
    const busy = () => this.openOrders().length > 0 || this.participants.some((p) => (p.open?.() ?? 0) > 0);
    while (!this.stopping && this.now < until && busy()) await this.step();
  }

  stop(): void {
    this.stopping = true;
    if (this.sleeper) {
      clearTimeout(this.sleeper.timer);
      this.sleeper.resolve();
    }
  }

  openOrders(): SimOrder[] {
    return [...this.orders.values()].filter((o) => o.ours && !o.final);
  }

  async step(): Promise<void> {
    const started = performance.now();
    if (!this.wallStarted) this.wallStarted = Date.now();
    this.now += this.tickSeconds;
    if (this.creating) this.loadSeconds += this.tickSeconds;
    const plans = this.creating ? this.duePassengers() : [];
    await Promise.all([
      ...plans.map((plan) => this.createOrder(plan)),
      this.passengerChecks(),
      ...this.drivers.map((d) => d.tick(this.now, this.tickSeconds)),
    ]);
    await this.handOutOffers();
    for (const participant of this.participants) {
      try {
        await participant.tick(this);
      } catch (error) {
        this.failure(error);
      }
    }
    const every = this.options.reportEveryMinutes;
    if (every > 0 && this.now % (every * 60) < this.tickSeconds) {
      this.log(this.reportLine(every));
      for (const participant of this.participants) if (participant.report) this.log(participant.report());
    }
    const budget = (this.tickSeconds * 1000) / this.options.speedUp;
    const spent = performance.now() - started;
    if (spent < budget && !this.stopping) await this.sleep(budget - spent);
    else this.lagMs += Math.max(0, spent - budget);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.sleeper = undefined;
        resolve();
      }, ms);
      this.sleeper = { timer, resolve };
    });
  }

  // ------------------------------------------------------------ passengers

  private duePassengers(): PassengerPlan[] {
    this.credit += (this.options.ordersPerMinute * this.tickSeconds) / 60;
    const plans: PassengerPlan[] = [];
    while (this.credit >= 1) {
      this.credit -= 1;
      plans.push(this.planPassenger());
    }
    return plans;
  }

  private planPassenger(): PassengerPlan {
    const r = this.passengers;
    const o = this.options;
    const pickup = this.city.any(r);
    const destination = this.city.around(r, pickup, r.range(1000, Math.max(1500, Math.min(9000, o.cityKm * 1200))));
    const serviceId = this.serviceIds.length > 1 && r.chance(0.1) ? this.serviceIds[1]! : this.serviceIds[0]!;
    const phone = `7901${String(r.int(0, 9_999_999)).padStart(7, "0")}`;
    const advance = r.chance(o.advanceShare);
    const lead = r.range(o.advanceLeadMinutes[0], o.advanceLeadMinutes[1]) * 60;
    const moderation = r.chance(o.moderationShare);
    const notify = r.chance(0.3);
    const patience = r.range(o.patienceMinutes[0], o.patienceMinutes[1]) * 60;
    const cancels = r.chance(o.cancelShare);
    const cancelAfter = r.range(60, 300);
    const noShow = r.chance(o.noShowShare);
    const boardDelay = r.range(20, 180);
    return {
      pickup,
      destination,
      serviceId,
      phone,
      advanceAt: advance ? this.now + lead : null,
      moderation,
      notify,
      patience,
      cancelAfterAssign: cancels ? cancelAfter : null,
      noShow,
      boardDelay,
    };
  }

  private async createOrder(plan: PassengerPlan): Promise<void> {
    const now = this.now;
    let token: string;
    try {
      const estimate = await this.dispatch.get("order/pre_cost", {
        way_points: JSON.stringify([
          { street: plan.pickup.street, house: plan.pickup.house },
          { street: plan.destination.street, house: plan.destination.house },
        ]),
        phone: plan.phone,
        service_id: plan.serviceId,
        pre_order_time_utc: plan.advanceAt === null ? undefined : utcText(this.wallOfSim(plan.advanceAt)),
      });
      token = String(estimate.token);
    } catch (error) {
      this.failure(error);
      return;
    }
    const params = { token, moderation_required: plan.moderation ? "yes" : "no", need_notify: plan.notify ? "yes" : "no" };
    let uuid: string | undefined;
    for (let attempt = 0; attempt < 2 && uuid === undefined; attempt++) {
      try {
        uuid = String((await this.dispatch.post("order", params)).uuid);
      } catch (error) {
        this.failure(error);
        // The token makes one order: a retry after an unknown outcome either
        // creates it or says it exists (then we cannot know its uuid: lost).
        if (!(error instanceof CallError) || !error.uncertain || attempt === 1) {
          if (error instanceof CallError && (error.uncertain || (attempt === 1 && error.code === "TOKEN_USED"))) this.lostOrder();
          return;
        }
      }
    }
    if (uuid === undefined) return;
    const start = plan.advanceAt ?? now;
    const state = plan.moderation ? "ON_MODERATION" : plan.advanceAt !== null ? "PREORDER_FREE" : "FREE";
    const giveUpAt = start + plan.patience;
    this.orders.set(uuid, {
      uuid,
      ours: true,
      createdAt: now,
      advanceAt: plan.advanceAt,
      state,
      code: state === "ON_MODERATION" ? 80 : state === "FREE" ? 9 : 50,
      driver: null,
      boarded: false,
      final: false,
      lost: false,
      lastPolled: now,
      giveUpAt,
      hardDeadline: giveUpAt + 30 * 60,
      stuckAt: giveUpAt + 120 * 60,
      cancelAfterAssign: plan.cancelAfterAssign,
      cancelAt: null,
      noShow: plan.noShow,
      boardDelay: plan.boardDelay,
    });
    this.stats.count("created", this.minute);
  }

  private lostOrder(): void {
    this.lostCount += 1;
  }

  private async passengerChecks(): Promise<void> {
    const now = this.now;
    const work: Array<Promise<void>> = [];
    for (const order of this.openOrders()) {
      const giveUp = !order.boarded && (now >= order.hardDeadline || (order.driver === null && now >= order.giveUpAt));
      const changedMind = !order.boarded && order.cancelAt !== null && now >= order.cancelAt;
      if (giveUp || changedMind) {
        order.cancelAt = null;
        work.push(this.cancel(order, changedMind ? "планы изменились" : "долго ждать"));
      } else if (now - order.lastPolled >= Math.max(this.tickSeconds, order.driver && this.byCallSign.has(order.driver) ? 600 : 90)) {
        order.lastPolled = now;
        work.push(this.poll(order));
      }
    }
    await Promise.all(work);
  }

  private async cancel(order: SimOrder, reason: string): Promise<void> {
    try {
      await this.dispatch.post("cancel_order", { uuid: order.uuid, reason });
      const holder = order.driver;
      this.onMove(order.uuid, "DONE_CANCELLED", 95, null);
      // A real driver app is told at once (a push); the simulated one reads its orders.
      if (holder) this.byCallSign.get(holder)?.nudge();
    } catch (error) {
      if (error instanceof CallError && error.code === "NOT_FOUND") return this.markLost(order);
      if (!(error instanceof CallError && error.code === "FORBIDDEN_MOVE")) this.failure(error);
      await this.poll(order);
    }
  }

  private markLost(order: SimOrder): void {
    if (order.lost) return;
    order.lost = true;
    order.final = true;
    this.lostOrder();
  }

  /** Reads an order's status as its passenger's app would. */
  async poll(order: SimOrder): Promise<void> {
    try {
      const info = await this.dispatch.get("order", { uuid: order.uuid });
      const state = String(info.name);
      // Taken on the exchange, the order has no driver of ours: its executor holds it.
      const holder = HOLDING.has(state) ? (typeof info.driver_id === "string" ? info.driver_id : "exchange") : null;
      this.onMove(order.uuid, state, Number(info.status), holder);
    } catch (error) {
      if (error instanceof CallError && error.code === "NOT_FOUND") return this.markLost(order);
      this.failure(error);
    }
  }

  /** Asks the passenger's app to look at the order soon (a driver lost it). */
  checkSoon(uuid: string): void {
    const order = this.orders.get(uuid);
    if (order) order.lastPolled = -Infinity;
  }

  /** What a driver or a passenger saw happen to an order: counts assignments and endings once each. */
  onMove(uuid: string, state: string, code: number, driver: string | null, kind?: "rejected"): void {
    let order = this.orders.get(uuid);
    if (!order) {
      order = {
        uuid,
        ours: false,
        createdAt: this.now,
        advanceAt: null,
        state,
        code,
        driver: null,
        boarded: false,
        final: false,
        lost: false,
        lastPolled: this.now,
        giveUpAt: Number.POSITIVE_INFINITY,
        hardDeadline: Number.POSITIVE_INFINITY,
        stuckAt: Number.POSITIVE_INFINITY,
        cancelAfterAssign: null,
        cancelAt: null,
        noShow: false,
        boardDelay: 60,
      };
      this.orders.set(uuid, order);
    }
    order.state = state;
    order.code = code;
    order.lastPolled = this.now;
    const minute = this.minute;
    if (kind === "rejected") {
      order.driver = null;
      order.cancelAt = null;
      if (order.ours) this.stats.count("rejected", minute);
    } else if (driver && HOLDING.has(state) && order.driver !== driver) {
      order.driver = driver;
      if (order.ours) {
        this.stats.count("assigned", minute);
        if (order.cancelAfterAssign !== null) order.cancelAt = this.now + order.cancelAfterAssign;
      }
    } else if (!HOLDING.has(state)) {
      order.driver = null;
    }
    if (state === "IN_PROCESS" || state === "AWAITING_PAYMENT") order.boarded = true;
    if (code >= 90 && !order.final) {
      order.final = true;
      if (!order.ours) {
        if (state === "DONE_SUCCESSFUL") this.stats.count("foreignCompleted", minute);
      } else if (state === "DONE_SUCCESSFUL") this.stats.count("completed", minute);
      else if (state === "DONE_CALL_FAILED") this.stats.count("noShow", minute);
      else this.stats.count("cancelled", minute);
    }
  }

  // ------------------------------------------------------------ drivers and offers

  /**
   * Free drivers look at the offers near them; each takes the nearest one no
   * other simulated driver is taking in this tick (the engine's seeded order
   * decides who looks first). The server still decides every race.
   */
  private async handOutOffers(): Promise<void> {
    const now = this.now;
    const looking = this.drivers.filter((d) => d.wantsOffers(now));
    if (looking.length === 0) return;
    const lists = await Promise.all(looking.map((d) => d.fetchOffers(now, this.options.offerRadiusKm)));
    const claimed = new Set<string>();
    const takes: Array<Promise<boolean>> = [];
    for (const i of this.rng.shuffle(looking.map((_, k) => k))) {
      const driver = looking[i]!;
      for (const offer of lists[i]!) {
        if (claimed.has(offer.uuid) || this.unwanted.has(offer.uuid)) continue;
        if (offer.state === "PREORDER_FREE") {
          const at = this.orders.get(offer.uuid)?.advanceAt ?? (offer.pre_order_time ? this.simOfWall(offer.pre_order_time) : now);
          if (at - now > 90 * 60 || !this.rng.chance(0.5)) continue;
        }
        claimed.add(offer.uuid);
        takes.push(driver.take(offer, now));
        break;
      }
    }
    await Promise.all(takes);
  }

  // ------------------------------------------------------------ reports

  private reportLine(every: number): string {
    const w = this.stats.window(this.minute - every, this.minute);
    const onShift = this.drivers.filter((d) => d.onShift);
    const busy = onShift.filter((d) => d.phase !== "idle").length;
    const open = this.openOrders();
    const stuck = open.filter((o) => this.now >= o.stuckAt).length;
    return (
      `| drivers ${onShift.length} on shift (${onShift.length - busy} free, ${busy} busy) ` +
      `| last ${every} min: ${w.created} created, ${w.assigned} assigned, ${w.completed} completed, ${w.cancelled + w.noShow} cancelled ` +
      `| open ${open.length} | lost ${this.lostCount} stuck ${stuck} | failed calls ${w.failedCalls} | lag ${(this.lagMs / 1000).toFixed(1)}s`
    );
  }

  summary(): Summary {
    const minutes = this.now / 60;
    const load = this.loadSeconds / 60;
    const per = (n: number) => (load > 0 ? Math.round((n / load) * 100) / 100 : 0);
    const t = this.stats.totals;
    const open = this.openOrders();
    return {
      simulatedMinutes: Math.round(minutes * 10) / 10,
      loadMinutes: Math.round(load * 10) / 10,
      wallSeconds: this.wallStarted ? Math.round((Date.now() - this.wallStarted) / 100) / 10 : 0,
      totals: { ...t },
      perMinute: { created: per(t.created), assigned: per(t.assigned), completed: per(t.completed), cancelled: per(t.cancelled + t.noShow) },
      open: open.length,
      lost: this.lostCount,
      stuck: open.filter((o) => this.now >= o.stuckAt).length,
      errors: Object.fromEntries(this.stats.errors),
      lagSeconds: Math.round(this.lagMs / 100) / 10,
    };
  }

  /**
   * Reads every order of the passengers that is not final from the server:
   * after a drain, an order still not final is stuck; one the server does not
   * know is lost.
   */
  async finalCheck(): Promise<{ stuck: string[]; lost: number }> {
    for (const order of this.openOrders()) await this.poll(order);
    return { stuck: this.openOrders().map((o) => `${o.uuid} ${o.state}`), lost: this.lostCount };
  }
}

interface PassengerPlan {
  pickup: Address;
  destination: Address;
  serviceId: number;
  phone: string;
  advanceAt: number | null;
  moderation: boolean;
  notify: boolean;
  patience: number;
  cancelAfterAssign: number | null;
  noShow: boolean;
  boardDelay: number;
}
