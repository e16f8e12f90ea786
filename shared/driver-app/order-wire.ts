// An order as the driver app interface shows it (GET /orders, the replies of
// the order moves), and the taximeter's reading in it: one definition for the
// server that writes it (server/driver-app/order-view.ts) and the driver's app
// that reads it (app/components/driver/api.ts). Amounts in roubles.

export interface FareBreakdownView {
  boarding: number;
  distance: number;
  time: number;
  waiting: number;
  extras: number;
  minimum_added: number;
  rounding: number;
}

/** The running taximeter of a METERED order (docs/driver-app.md, "The taximeter"). */
export interface MeterView {
  distance_m: number;
  trip_seconds: number;
  waiting_seconds: number;
  fare: number;
  breakdown: FareBreakdownView;
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
  /** FIXED: `amount` is the price; METERED: the taximeter's. */
  rate_kind: "FIXED" | "METERED";
  /** The running meter of a METERED order from the driver's arrival on; null otherwise. */
  meter: MeterView | null;
}
