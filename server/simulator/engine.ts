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
import { CallError, DispatchClient, DriverAppClient } from "./http";
import { SimCity, type Address, type MapReply } from "./city";
import { SimDriver } from "./driver";
import { clockText, Stats, type Summary } from "./stats";
import { HOLDING, type SimOrder } from "./sim-order";
import { Passengers } from "./passengers";
import { handOutOffers } from "./offers";
import { DEFAULT_OPTIONS, type Participant, type ResolvedOptions, type SimulationOptions } from "./options";

export { DEFAULT_OPTIONS, type Participant, type ResolvedOptions, type SimulationOptions } from "./options";
export type { SimOrder } from "./sim-order";

/** Codes of refusals that races in a living city produce (the server decided; nothing failed). */
const EXPECTED_REFUSALS = new Set(["NOT_FOUND", "CONFLICT", "GONE", "FORBIDDEN_MOVE", "TOKEN_USED", "TOKEN_EXPIRED", "NOT_ACCEPTABLE"]);

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
  private readonly passengers: Passengers;
  private lagMs = 0;
  private lostCount = 0;
  /** Simulated seconds during which passengers ordered (the load phase, before a drain). */
  private loadSeconds = 0;
  private wallStarted = 0;
  private sleeper: { timer: ReturnType<typeof setTimeout>; resolve: () => void } | undefined;
  readonly byCallSign = new Map<string, SimDriver>();
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
    this.passengers = new Passengers(this, root.fork("passengers"));
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

  /**
   * A call that failed: counted by code; the first few of each code are
   * logged. A refusal the server is right to give in a living city (the
   * order moved on, was cancelled or taken by another driver meanwhile) is
   * no failure of anything: it is logged at debug only.
   */
  failure(error: unknown): void {
    const code = error instanceof CallError ? error.code : "EXCEPTION";
    this.stats.error(code, this.minute);
    const seen = (this.logged.get(code) ?? 0) + 1;
    this.logged.set(code, seen);
    const text = error instanceof Error ? error.message : String(error);
    if (EXPECTED_REFUSALS.has(code)) this.log(`call refused (${code}): ${text}`, "debug");
    else if (seen <= 3 || this.options.verbose) this.log(`call failed (${code}): ${text}`);
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
    const plans = this.creating ? this.passengers.due() : [];
    await Promise.all([
      ...plans.map((plan) => this.passengers.createOrder(plan)),
      this.passengers.passengerChecks(),
      ...this.drivers.map((d) => d.tick(this.now, this.tickSeconds)),
    ]);
    await handOutOffers(this, this.rng);
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

  lostOrder(): void {
    this.lostCount += 1;
  }

  markLost(order: SimOrder): void {
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
