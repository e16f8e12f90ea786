// The driver app interface (/driver-app/v1, docs/driver-app.md) as the
// browser app calls it: the same HTTP calls any driver app makes, with the
// key as a bearer token. It imports no server code: the order's shape is the
// one the server writes, from shared/ (one definition), the rest written from
// the documentation.
import type { FareBreakdownView, MeterView, DriverOrderView } from "@/shared/driver-app/order-wire";

export interface DriverProfile {
  id: number;
  call_sign: string;
  first_name: string;
  last_name: string;
  state: "OFFLINE" | "FREE" | "BUSY";
  on_shift: boolean;
  /** On shift but offered nothing (absent from servers older than this field). */
  on_break?: boolean;
  shift_id: number | null;
  shift_started_at: string | null;
  balance: number;
  city_id: number;
  service_ids: number[];
  /** The services with their names (absent from servers older than this field). */
  services?: Array<{ id: number; name: string; name_en: string }>;
  car: { brand: string; model: string; color: string; reg_number: string; car_class: number } | null;
  position: { lat: number | null; lon: number | null; speed: number; bearing: number; region_id: number | null; at: string | null };
  /** Whether automatic dispatch offers the driver orders and why not (absent from servers older than this field). */
  dispatch?: { offered: boolean; away: boolean; away_since: string | null; stale_position: boolean; silent_app: boolean };
}



// The order and the meter as the server writes them (one definition: shared/driver-app/order-wire.ts).
export type MeterBreakdown = FareBreakdownView;
export type MeterReading = MeterView;
export type DriverOrder = DriverOrderView;

export interface Offer {
  offer_id: number;
  kind: "LIVE" | "CHAIN" | "ADVANCE";
  attempt: number;
  deadline: string;
  seconds_left: number;
  arrival_minutes: number | null;
  order: DriverOrder;
}

export interface CityMap {
  city: { id: number; name: string; name_en: string; lat: number; lon: number; timezone: string };
  bounds: { min_lat: number; max_lat: number; min_lon: number; max_lon: number } | null;
  regions: Array<{ id: number; name: string; polygon: Array<[number, number]> }>;
  streets: Array<{ name: string; kind: string; lat: number; lon: number; houses: Array<[string, number, number]> }>;
}

export interface RouteReply {
  on_roads: boolean;
  metres: number;
  seconds: number;
  points: Array<[number, number]>;
}

export interface QueuePlace {
  region_id: number;
  position: number;
  length: number;
  joined_at: string;
}

export interface DriverMessage {
  id: number;
  from: "DISPATCHER" | "DRIVER";
  text: string;
  at: string;
  read: boolean;
}

export interface LedgerEntry {
  id: number;
  amount: number;
  balance_after: number | null;
  kind: string;
  comment: string;
  at: string;
}

export interface PositionFix {
  lat: number;
  lon: number;
  speed: number;
  bearing: number;
  /** ISO 8601 time of the fix. */
  at: string;
}

/** A refusal in the interface's error form, or no connection at all (`offline`). */
export class DriverApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    /** The server's Retry-After (429, 503), seconds. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
  get offline(): boolean {
    return this.status === 0;
  }
  get unauthorized(): boolean {
    return this.status === 401;
  }
}

export const API_BASE = "/driver-app/v1";

export async function driverCall<T>(key: string, method: "GET" | "POST", path: string, input: Record<string, unknown> = {}): Promise<T> {
  let url = `${API_BASE}/${path}`;
  const init: RequestInit = { method, headers: { authorization: `Bearer ${key}` }, cache: "no-store" };
  if (method === "GET") {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(input)) if (value !== undefined && value !== null) query.set(name, String(value));
    if ([...query].length) url += `?${query}`;
  } else {
    init.headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    init.body = JSON.stringify(input);
  }
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (e) {
    throw new DriverApiError(0, "OFFLINE", e instanceof Error ? e.message : "network error");
  }
  const body = (await res.json().catch(() => null)) as (T & { error?: undefined }) | { error?: { code?: string; message?: string } & Record<string, unknown> } | null;
  if (!res.ok) {
    const error = (body)?.error;
    const retryAfter = Number(res.headers.get("retry-after"));
    throw new DriverApiError(res.status, error?.code ?? `HTTP_${res.status}`, error?.message ?? res.statusText, error ?? {}, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined);
  }
  return body as T;
}

/** GET /hint: a suggested place to wait while free (docs/driver-app.md), never an order. */
export interface RegionHint {
  region_id: number;
  region_name: string;
  region_name_en: string;
  target: { lat: number; lon: number };
  drive_seconds: number;
  drive_minutes: number;
  /** What the coverage rule measured: the recent pickups weighed, the seconds waiting there saves them on average; the target region's pickups and free cars. */
  reason: { rule: "coverage"; pickups: number; window_minutes: number; saves_seconds: number; recent_orders: number; free_drivers: number };
}
