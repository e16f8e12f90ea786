// The simulated passengers: a steady rate of orders through the dispatch API
// (an estimate, then the order from its token; some in advance, some for
// moderation), and what they do while waiting (cancel when nobody took the
// order within their patience, a few after a driver took it; read the
// order's status as their app would). Split out of engine.ts.
import type { Rng } from "../seed/demo/random";
import { CallError } from "./http";
import type { Address } from "./city";
import type { Engine } from "./engine";
import type { SimOrder } from "./sim-order";

function utcText(at: Date): string {
  return at.toISOString().slice(0, 19).replace("T", " ");
}

export class Passengers {
  private credit: number;

  constructor(
    private readonly engine: Engine,
    private readonly rng: Rng,
  ) {
    this.credit = rng.float();
  }

  /** The passengers due in this tick (a steady rate). */
  due(): PassengerPlan[] {
    this.credit += (this.engine.options.ordersPerMinute * this.engine.tickSeconds) / 60;
    const plans: PassengerPlan[] = [];
    while (this.credit >= 1) {
      this.credit -= 1;
      plans.push(this.planPassenger());
    }
    return plans;
  }

  private planPassenger(): PassengerPlan {
    const r = this.rng;
    const o = this.engine.options;
    const pickup = this.engine.city.any(r);
    const destination = this.engine.city.around(r, pickup, r.range(1000, Math.max(1500, Math.min(9000, o.cityKm * 1200))));
    const serviceId = this.engine.serviceIds.length > 1 && r.chance(0.1) ? this.engine.serviceIds[1]! : this.engine.serviceIds[0]!;
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
      advanceAt: advance ? this.engine.now + lead : null,
      moderation,
      notify,
      patience,
      cancelAfterAssign: cancels ? cancelAfter : null,
      noShow,
      boardDelay,
    };
  }

  async createOrder(plan: PassengerPlan): Promise<void> {
    const now = this.engine.now;
    let token: string;
    try {
      const estimate = await this.engine.dispatch.get("order/pre_cost", {
        way_points: JSON.stringify([
          { street: plan.pickup.street, house: plan.pickup.house },
          { street: plan.destination.street, house: plan.destination.house },
        ]),
        phone: plan.phone,
        service_id: plan.serviceId,
        pre_order_time_utc: plan.advanceAt === null ? undefined : utcText(this.engine.wallOfSim(plan.advanceAt)),
      });
      token = String(estimate.token);
    } catch (error) {
      this.engine.failure(error);
      return;
    }
    const params = { token, moderation_required: plan.moderation ? "yes" : "no", need_notify: plan.notify ? "yes" : "no" };
    let uuid: string | undefined;
    for (let attempt = 0; attempt < 2 && uuid === undefined; attempt++) {
      try {
        uuid = String((await this.engine.dispatch.post("order", params)).uuid);
      } catch (error) {
        this.engine.failure(error);
        // The token makes one order: a retry after an unknown outcome either
        // creates it or says it exists (then we cannot know its uuid: lost).
        if (!(error instanceof CallError) || !error.uncertain || attempt === 1) {
          if (error instanceof CallError && (error.uncertain || (attempt === 1 && error.code === "TOKEN_USED"))) this.engine.lostOrder();
          return;
        }
      }
    }
    if (uuid === undefined) return;
    const start = plan.advanceAt ?? now;
    const state = plan.moderation ? "ON_MODERATION" : plan.advanceAt !== null ? "PREORDER_FREE" : "FREE";
    const giveUpAt = start + plan.patience;
    this.engine.orders.set(uuid, {
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
    this.engine.stats.count("created", this.engine.minute);
  }

  /** Passengers who give up or change their mind cancel; the others' apps read their orders now and then. */
  async passengerChecks(): Promise<void> {
    const now = this.engine.now;
    const work: Array<Promise<void>> = [];
    for (const order of this.engine.openOrders()) {
      const giveUp = !order.boarded && (now >= order.hardDeadline || (order.driver === null && now >= order.giveUpAt));
      const changedMind = !order.boarded && order.cancelAt !== null && now >= order.cancelAt;
      if (giveUp || changedMind) {
        order.cancelAt = null;
        work.push(this.cancel(order, changedMind ? "планы изменились" : "долго ждать"));
      } else if (now - order.lastPolled >= Math.max(this.engine.tickSeconds, order.driver && this.engine.byCallSign.has(order.driver) ? 600 : 90)) {
        order.lastPolled = now;
        work.push(this.engine.poll(order));
      }
    }
    await Promise.all(work);
  }

  private async cancel(order: SimOrder, reason: string): Promise<void> {
    try {
      await this.engine.dispatch.post("cancel_order", { uuid: order.uuid, reason });
      const holder = order.driver;
      this.engine.onMove(order.uuid, "DONE_CANCELLED", 95, null);
      // A real driver app is told at once (a push); the simulated one reads its orders.
      if (holder) this.engine.byCallSign.get(holder)?.nudge();
    } catch (error) {
      if (error instanceof CallError && error.code === "NOT_FOUND") return this.engine.markLost(order);
      if (!(error instanceof CallError && error.code === "FORBIDDEN_MOVE")) this.engine.failure(error);
      await this.engine.poll(order);
    }
  }
}

export interface PassengerPlan {
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
