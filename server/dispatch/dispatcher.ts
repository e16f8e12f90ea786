// The dispatcher stays in charge: pause automatic dispatch of an order, send
// it to a chosen driver (the candidates listed with their arrival times),
// take it back from a driver, and see the attempts and the orders in trouble.
import type { Db, DbOrTx } from "../db";
import type { Actor } from "../actor";
import { OrderError } from "../errors";
import { lockOrder, moveOrderInTx, publishMoves, type MovedOrder } from "../orders/move-order";
import { DRIVER_REFUSABLE_LIVE_STATES, TROUBLE_STATES, type OrderState } from "../orders/states";
import { arrivalTimes, driverInput, orderInput } from "./candidates";
import { costOf, isCandidate } from "./core/eligibility";
import { readChainDrivers, readFreeDrivers, readFreeOrders, readQueuePlaces } from "./data";
import { makeOfferOrThrow, type MadeOffer } from "./offer";
import { publishOfferAnswer, withdrawOfferInTx } from "./answer-offer";
import { loadSettings, type DispatchSettings } from "./settings";

/** Settings for an order of an unconfigured service, when a dispatcher sends it by hand. */
const MANUAL_DEFAULTS = { acceptSeconds: 30, radiusKm: 50, fairnessWeight: 0, minBalance: -(2n ** 62n), chainMinutes: 0 };

export async function setPaused(db: Db, orderId: number, paused: boolean, actor: Actor): Promise<void> {
  await db.$transaction(async (tx) => {
    await lockOrder(tx, { orderId });
    const by = actor.id ?? "";
    await tx.dispatchOrder.upsert({ where: { orderId }, create: { orderId, paused, pausedBy: paused ? by : "" }, update: { paused, pausedBy: paused ? by : "" }, select: { orderId: true } });
  });
}

/** A dispatcher's offer of the order to the driver (even while automatic dispatch of it is paused). */
export async function sendToDriver(db: Db, orderId: number, driverId: number, actor: Actor): Promise<MadeOffer> {
  const order = await db.order.findUnique({ where: { id: orderId }, select: { state: true, serviceId: true, regionId: true } });
  if (!order) throw new OrderError("NOT_FOUND", { what: "Order", id: orderId });
  const s = (await loadSettings(db)).forOrder(order.serviceId, order.regionId);
  const kind = order.state === "PREORDER_FREE" ? "ADVANCE" : "LIVE";
  return makeOfferOrThrow(db, { orderId, driverId, kind, source: "DISPATCHER", arrivalSeconds: null, acceptSeconds: s?.acceptSeconds ?? MANUAL_DEFAULTS.acceptSeconds, actor, ignorePause: true });
}

/** Takes the order back from its driver: a live offer is withdrawn, an order not yet boarded goes back to FREE. */
export async function takeBack(db: Db, orderId: number, actor: Actor, reason = "taken back by the dispatcher"): Promise<void> {
  const result = await db.$transaction(async (tx) => {
    const order = await lockOrder(tx, { orderId });
    const withdrawn = await withdrawOfferInTx(tx, orderId, actor, reason);
    if (withdrawn) return { withdrawn, moves: withdrawn.moves };
    if (order.driver_id === null || !DRIVER_REFUSABLE_LIVE_STATES.includes(order.state as OrderState)) {
      throw new OrderError("CONFLICT", { reason: `the order has no driver to take it from (${order.state})` });
    }
    const moves: MovedOrder[] = [await moveOrderInTx(tx, { orderId, to: "FREE", actor, reason })];
    return { withdrawn: undefined, moves };
  });
  if (result.withdrawn) publishOfferAnswer(result.withdrawn.offer, "WITHDRAWN", result.moves);
  else publishMoves(result.moves);
}

export interface CandidateView {
  driverId: number;
  callSign: string;
  arrivalSeconds: number;
  eligible: boolean;
  chain: boolean;
  queuePosition: number | null;
  cost: number;
}

/** Every free driver (and chain candidate) of the order's city with the arrival time; the eligible first, nearest first. */
export async function candidatesFor(db: Db, orderId: number, limit = 20): Promise<CandidateView[]> {
  const rows = (await readFreeOrders(db, ["FREE", "FREE_LONG", "ORDER_ON_RADIO", "PREORDER_FREE"])).filter((r) => r.id === orderId);
  const row = rows[0];
  if (!row) return [];
  const settings: DispatchSettings = (await loadSettings(db)).forOrder(row.service_id, row.region_id) ?? {
    id: 0, serviceId: row.service_id, regionId: null, mode: "MANUAL", strategy: "GREEDY", attempts: 0, freeLongMinutes: 0, batchSeconds: 0,
    advanceLeadMinutes: 0, confirmLeadMinutes: 0, ...MANUAL_DEFAULTS,
  };
  const now = new Date();
  const order = orderInput(row, settings, now);
  const queue = new Map((await readQueuePlaces(db)).map((q) => [q.driver_id, q]));
  const driverRows = [...(await readFreeDrivers(db)), ...(await readChainDrivers(db, Math.max(60, settings.chainMinutes * 60)))].filter((d) => d.city_id === row.city_id);
  const drivers = driverRows.map((d) => driverInput(d, queue, now));
  const matrix = await arrivalTimes(db, row.city_id, [order], drivers, now);
  const signs = new Map((await db.driver.findMany({ where: { id: { in: drivers.map((d) => d.id) } }, select: { id: true, callSign: true } })).map((d) => [d.id, d.callSign]));
  return drivers
    .map((d, j) => {
      const seconds = matrix[0]![j]!;
      return {
        driverId: d.id,
        callSign: signs.get(d.id) ?? String(d.id),
        arrivalSeconds: Math.round(seconds + d.busyForSeconds),
        eligible: isCandidate(order, d, seconds),
        chain: d.busyForSeconds > 0,
        queuePosition: d.queue && d.queue.regionId === row.region_id ? d.queue.position + 1 : null,
        cost: Math.round(costOf(order, d, seconds)),
      };
    })
    .sort((a, b) => Number(b.eligible) - Number(a.eligible) || a.arrivalSeconds - b.arrivalSeconds)
    .slice(0, limit);
}

export interface AttemptView {
  id: number;
  attempt: number;
  driverId: number;
  callSign: string;
  kind: string;
  source: string;
  state: string;
  arrivalSeconds: number | null;
  sentAt: string;
  deadline: string;
  answeredAt: string | null;
  reason: string;
  actorId: string;
}

/** Every offer of the order: who, when, the outcome (the order card). */
export async function attemptsOf(db: DbOrTx, orderId: number): Promise<AttemptView[]> {
  const rows = await db.dispatchOffer.findMany({
    where: { orderId },
    orderBy: { id: "asc" },
    take: 200,
    select: { id: true, attempt: true, driverId: true, kind: true, source: true, state: true, arrivalSeconds: true, sentAt: true, deadline: true, answeredAt: true, reason: true, actorId: true, driver: { select: { callSign: true } } },
  });
  return rows.map((r) => ({
    id: r.id,
    attempt: r.attempt,
    driverId: r.driverId,
    callSign: r.driver.callSign,
    kind: r.kind,
    source: r.source,
    state: r.state,
    arrivalSeconds: r.arrivalSeconds,
    sentAt: r.sentAt.toISOString(),
    deadline: r.deadline.toISOString(),
    answeredAt: r.answeredAt?.toISOString() ?? null,
    reason: r.reason,
    actorId: r.actorId,
  }));
}

export interface DispatchControlView {
  paused: boolean;
  pausedBy: string;
  attempts: number;
  radioAt: string | null;
}

export async function controlOf(db: DbOrTx, orderId: number): Promise<DispatchControlView> {
  const c = await db.dispatchOrder.findUnique({ where: { orderId }, select: { paused: true, pausedBy: true, attempts: true, radioAt: true } });
  return { paused: c?.paused ?? false, pausedBy: c?.pausedBy ?? "", attempts: c?.attempts ?? 0, radioAt: c?.radioAt?.toISOString() ?? null };
}

export interface TroubleView {
  id: number;
  uuid: string;
  state: string;
  street: string;
  house: string;
  regionId: number | null;
  createdAt: string;
  paused: boolean;
  attempts: number;
}

/** Orders in trouble: free too long, on the radio, an advance order nobody confirmed, or paused by a dispatcher. */
export async function troubleOrders(db: DbOrTx, limit = 100): Promise<TroubleView[]> {
  const rows = await db.order.findMany({
    where: {
      OR: [
        { state: { in: TROUBLE_STATES } },
        { state: { in: ["FREE", "FREE_LONG", "ORDER_ON_RADIO", "PREORDER_FREE"] }, dispatchControl: { paused: true } },
      ],
    },
    orderBy: { createdAt: "asc" },
    take: limit,
    select: { id: true, uuid: true, state: true, street: true, house: true, regionId: true, createdAt: true, dispatchControl: { select: { paused: true, attempts: true } } },
  });
  return rows.map((r) => ({
    id: r.id,
    uuid: r.uuid,
    state: r.state,
    street: r.street,
    house: r.house,
    regionId: r.regionId,
    createdAt: r.createdAt.toISOString(),
    paused: r.dispatchControl?.paused ?? false,
    attempts: r.dispatchControl?.attempts ?? 0,
  }));
}
