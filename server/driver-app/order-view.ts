// An order as the driver app shows it: the fields a driver needs, money in
// roubles, times in ISO 8601. The passenger (name and phone) only once the
// order is this driver's: accepted by them and not over. A free order, a live
// offer, an order sent to the driver who has not accepted it, someone else's
// order: the fields are there, empty (docs/driver-app.md, "The passenger").
import type { Db } from "../db";
import { kopecksToRoubles } from "../balances/money";
import { DRIVER_OFFERED_STATES, isDone, isOrderState } from "../orders/states";
import { rateKindOf, type RateKindName } from "../meter/order-meter";
import { withMeter } from "./meter-view";
import type { DriverOrderView } from "../../shared/driver-app/order-wire";

export const orderSelect = {
  id: true,
  uuid: true,
  version: true,
  state: true,
  statusCode: true,
  serviceId: true,
  street: true,
  house: true,
  entrance: true,
  lat: true,
  lon: true,
  dst: true,
  dstStreet: true,
  dstHouse: true,
  dstLat: true,
  dstLon: true,
  amount: true,
  distance: true,
  routeTime: true,
  preOrderTime: true,
  arrivalAt: true,
  comment: true,
  clientName: true,
  phone: true,
  driverId: true,
  createdAt: true,
  priceToken: true,
  rate: { select: { kind: true } },
} as const;

export interface OrderRow {
  id: number;
  uuid: string;
  version: number;
  state: string;
  statusCode: number;
  serviceId: number;
  street: string;
  house: string;
  entrance: string;
  lat: number | null;
  lon: number | null;
  dst: string;
  dstStreet: string;
  dstHouse: string;
  dstLat: number | null;
  dstLon: number | null;
  amount: number | null;
  distance: number | null;
  routeTime: number | null;
  preOrderTime: Date | null;
  arrivalAt: Date | null;
  comment: string;
  clientName: string;
  phone: string;
  driverId: number | null;
  createdAt: Date;
  priceToken: string | null;
  rate: { kind: RateKindName } | null;
}

export type { DriverOrderView };

/** Whether the passenger may be shown to this driver: the order is theirs, accepted and not over. */
export function passengerVisible(row: Pick<OrderRow, "driverId" | "state">, driverId: number): boolean {
  if (row.driverId !== driverId || !isOrderState(row.state)) return false;
  return !DRIVER_OFFERED_STATES.includes(row.state) && !isDone(row.state);
}

/** The order as `driverId` may see it. */
export function view(row: OrderRow, driverId: number): DriverOrderView {
  const passenger = passengerVisible(row, driverId);
  const hasDestination = row.dst !== "" || row.dstStreet !== "" || row.dstLat !== null;
  return {
    id: row.id,
    uuid: row.uuid,
    version: row.version,
    state: row.state,
    status_code: row.statusCode,
    service_id: row.serviceId,
    pickup: { street: row.street, house: row.house, entrance: row.entrance, lat: row.lat, lon: row.lon },
    destination: hasDestination ? { line: row.dst, street: row.dstStreet, house: row.dstHouse, lat: row.dstLat, lon: row.dstLon } : null,
    amount: row.amount === null ? null : kopecksToRoubles(row.amount),
    route_km: row.distance === null ? null : Math.round(row.distance) / 1000,
    route_minutes: row.routeTime === null ? null : Math.round(row.routeTime / 60),
    pre_order_time: row.preOrderTime?.toISOString() ?? null,
    arrival_at: row.arrivalAt?.toISOString() ?? null,
    comment: row.comment,
    client_name: passenger ? row.clientName : "",
    phone: passenger ? row.phone : "",
    created_at: row.createdAt.toISOString(),
    rate_kind: rateKindOf(row),
    meter: null,
  };
}

export async function readDriverOrder(db: Db, id: number, driverId: number): Promise<DriverOrderView> {
  const row = await db.order.findUniqueOrThrow({ where: { id }, select: orderSelect });
  // The meter is the driver's own business: shown on their orders only.
  return row.driverId === driverId ? withMeter(db, view(row, driverId)) : view(row, driverId);
}

