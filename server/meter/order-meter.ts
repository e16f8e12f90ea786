// The taximeter of one order: its rate, the times of its moves, the track
// recorded while the passenger was aboard (order_track), measured by
// track.ts and priced by fare.ts. Read live (the driver's app, the console's
// order card) and once more at completion, which keeps the result.
import type { DbOrTx } from "../db";
import { routeThrough } from "../routing/routes";
import { meteredFare, type MeteredFare, type MeterReading } from "./fare";
import { measureTrack, type Fix } from "./track";

/** A completion this long after the last fix was replayed after a connection loss: the trip ended at the last fix (plus this). */
export const COMPLETION_REPLAY_SLACK_MS = 60_000;
/** At most this many fixes are measured (a day of fixes every 4 s); more are not a trip. */
const MAX_FIXES = 20_000;
/** Gaps bridged along the roads at most per reading (each is a route search). */
const MAX_ROAD_BRIDGES = 8;

export type RateKindName = "FIXED" | "METERED";

export interface OrderMeter {
  reading: MeterReading;
  fare: MeteredFare;
  fixes: number;
  dropped: number;
}

const meteredRateSelect = {
  kind: true,
  pickUp: true,
  minFare: true,
  kmCost: true,
  kmStart: true,
  minuteCost: true,
  waitCost: true,
  freeWaitTime: true,
  roundTo: true,
} as const;

/** METERED when the order's rate meters and the order has no guaranteed price (a price token stays fixed). */
export function rateKindOf(order: { priceToken: string | null; rate: { kind: RateKindName } | null }): RateKindName {
  return order.rate?.kind === "METERED" && order.priceToken === null ? "METERED" : "FIXED";
}

const MOVES = ["AWAITING_CLIENT", "IN_PROCESS", "AWAITING_PAYMENT", "DONE_SUCCESSFUL"];

/**
 * The meter of the order now, or null for a fixed price or before the driver
 * arrived. `endedAt` ends the trip at that instant (the completion being made).
 */
export async function readOrderMeter(db: DbOrTx, orderId: number, options: { now?: Date; endedAt?: Date } = {}): Promise<OrderMeter | null> {
  const now = (options.now ?? new Date()).getTime();
  const order = await db.order.findUnique({
    where: { id: orderId },
    select: { cityId: true, priceToken: true, rate: { select: meteredRateSelect }, extras: { select: { price: true, count: true } } },
  });
  if (!order?.rate || rateKindOf(order) !== "METERED") return null;
  const moves = await db.orderStatusChange.findMany({ where: { orderId }, select: { toState: true, at: true }, orderBy: { id: "asc" } });
  const arrived = moves.find((m) => m.toState === "AWAITING_CLIENT");
  const boardedIndex = moves.findIndex((m) => m.toState === "IN_PROCESS");
  const boarded = moves[boardedIndex];
  if (!arrived && !boarded) return null;

  // Waiting: from the arrival to the move that ends it (aboard, or the passenger did not come out), or now. The
  // waiting states' own moves (AWAITING_CLIENT_NOTIFIED once the SMS went, AWAITING_CLIENT_LONG) do not end it.
  let waitingSeconds = 0;
  if (arrived) {
    const afterArrival = moves.slice(moves.indexOf(arrived) + 1).find((m) => !m.toState.startsWith("AWAITING_CLIENT"));
    waitingSeconds = Math.max(0, ((afterArrival?.at.getTime() ?? now) - arrived.at.getTime()) / 1000);
  }

  let fixes: Fix[] = [];
  let tripSeconds = 0;
  let distanceMetres = 0;
  let dropped = 0;
  if (boarded) {
    const rows = await db.orderTrack.findMany({ where: { orderId }, select: { lat: true, lon: true, at: true }, orderBy: { at: "asc" }, take: MAX_FIXES });
    fixes = rows.map((r) => ({ lat: r.lat, lon: r.lon, at: r.at.getTime() }));
    const measured = await measureWithRoads(db, order.cityId, fixes, now);
    distanceMetres = measured.metres;
    dropped = measured.dropped;
    const ended = options.endedAt?.getTime() ?? moves.slice(boardedIndex + 1).find((m) => MOVES.includes(m.toState) && m.toState !== "IN_PROCESS")?.at.getTime();
    const firstFix = measured.kept[0]?.at;
    const lastFix = measured.kept.at(-1)?.at;
    const start = Math.min(boarded.at.getTime(), firstFix ?? Number.POSITIVE_INFINITY);
    let end = ended ?? now;
    if (ended !== undefined && lastFix !== undefined && ended - lastFix > COMPLETION_REPLAY_SLACK_MS) end = lastFix + COMPLETION_REPLAY_SLACK_MS;
    tripSeconds = Math.max(0, (end - start) / 1000);
  }
  const reading = { distanceMetres: Math.round(distanceMetres), tripSeconds: Math.round(tripSeconds), waitingSeconds: Math.round(waitingSeconds) };
  const extras = order.extras.reduce((sum, e) => sum + e.price * e.count, 0);
  return { reading, fare: meteredFare(order.rate, reading, extras), fixes: fixes.length, dropped };
}

/** Measures the track; its gaps (tunnels) bridged by the road distance where the city's roads give one. */
async function measureWithRoads(db: DbOrTx, cityId: number, fixes: Fix[], now: number) {
  const first = measureTrack(fixes, now);
  if (first.gaps.length === 0) return first;
  const roads = new Map<string, number | null>();
  for (const gap of first.gaps.slice(0, MAX_ROAD_BRIDGES)) {
    const route = await routeThrough(db, cityId, [gap.from, gap.to], new Date(gap.from.at));
    roads.set(`${gap.from.at}:${gap.to.at}`, route?.metres ?? null);
  }
  return measureTrack(fixes, now, (from, to) => roads.get(`${from.at}:${to.at}`) ?? null);
}
