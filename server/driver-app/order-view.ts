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
import { sqlQuery } from "../db/sql";
import { OrderError } from "../errors";

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

// The same row as `orderSelect`, by hand: every offer pushed to a phone and every answer's reply reads it (an ORM
// call costs a query compilation in the process: docs/performance.md, "A fleet of ten thousand"; its twin is kept equal
// by tests/unit/driver-order-row.test.ts). Times come as
// epoch milliseconds: the columns hold UTC without a zone, which the driver would read in the process's zone.
const ORDER_ROW = `
  SELECT o.id, o.uuid::text AS uuid, o.version, o.state, o.status_code AS "statusCode", o.service_id AS "serviceId",
         o.street, o.house, o.entrance, o.lat, o.lon, o.dst, o.dst_street AS "dstStreet", o.dst_house AS "dstHouse",
         o.dst_lat AS "dstLat", o.dst_lon AS "dstLon", o.amount, o.distance, o.route_time AS "routeTime",
         (extract(epoch FROM o.pre_order_time) * 1000)::float8 AS "preOrderMs",
         (extract(epoch FROM o.arrival_at) * 1000)::float8 AS "arrivalMs",
         o.comment, o.client_name AS "clientName", o.phone, o.driver_id AS "driverId",
         (extract(epoch FROM o.created_at) * 1000)::float8 AS "createdMs",
         o.price_token AS "priceToken", r.kind::text AS "rateKind"
    FROM orders o LEFT JOIN rate r ON r.id = o.rate_id
   WHERE o.id = $1`;

type RawOrderRow = Omit<OrderRow, "preOrderTime" | "arrivalAt" | "createdAt" | "rate"> & { preOrderMs: number | null; arrivalMs: number | null; createdMs: number; rateKind: RateKindName | null };

export async function readOrderRow(db: Db, id: number): Promise<OrderRow> {
  const [raw] = await sqlQuery<RawOrderRow>(db, ORDER_ROW, [id]);
  if (!raw) throw new OrderError("NOT_FOUND", { what: "Order", id: String(id) });
  const { preOrderMs, arrivalMs, createdMs, rateKind, ...row } = raw;
  return {
    ...row,
    preOrderTime: preOrderMs === null ? null : new Date(preOrderMs),
    arrivalAt: arrivalMs === null ? null : new Date(arrivalMs),
    createdAt: new Date(createdMs),
    rate: rateKind === null ? null : { kind: rateKind },
  };
}

export async function readDriverOrder(db: Db, id: number, driverId: number): Promise<DriverOrderView> {
  const row = await readOrderRow(db, id);
  // The meter is the driver's own business: shown on their orders only.
  return row.driverId === driverId ? withMeter(db, view(row, driverId)) : view(row, driverId);
}

