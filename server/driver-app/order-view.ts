// An order as the driver app shows it: the fields a driver needs, money in
// roubles, times in ISO 8601.
import type { Db } from "../db";
import { kopecksToRoubles } from "../balances/money";

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
  createdAt: true,
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
  createdAt: Date;
}

export interface DriverOrderView {
  id: number;
  uuid: string;
  version: number;
  state: string;
  status_code: number;
  service_id: number;
  pickup: { street: string; house: string; entrance: string; lat: number | null; lon: number | null };
  destination: { line: string; street: string; house: string; lat: number | null; lon: number | null } | null;
  amount: number | null;
  route_km: number | null;
  route_minutes: number | null;
  pre_order_time: string | null;
  arrival_at: string | null;
  comment: string;
  client_name: string;
  phone: string;
  created_at: string;
}

export function view(row: OrderRow): DriverOrderView {
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
    client_name: row.clientName,
    phone: row.phone,
    created_at: row.createdAt.toISOString(),
  };
}

export async function readDriverOrder(db: Db, id: number): Promise<DriverOrderView> {
  return view(await db.order.findUniqueOrThrow({ where: { id }, select: orderSelect }));
}

