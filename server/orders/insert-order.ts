// Writing a new order: the client (by phone), the order, its first history
// entry, its extras, the driver it was sent to and the integrator's status
// callback, in ONE statement (data-modifying CTEs are atomic: all of it or
// none). Order creation is the hottest write of the dispatch API, and one
// round trip through the raw driver replaces an interactive transaction of
// six Prisma statements (docs/performance.md).
//
// The blacklist is checked by the same statement: a listed phone inserts
// nothing and returns no row.
import { randomUUID } from "node:crypto";
import type { Db, Tx } from "../db";
import { rawQuery } from "../db/sql";
import type { Actor } from "../actor";
import { callbackFields, type CallbackSource } from "../notifications/callback-template";
import { statusCallback } from "../notifications/order-moved";
import type { OrderState } from "./states";
import type { Prisma } from "../generated/prisma/client";
import type { IdempotentWrite } from "../idempotency/store";

export interface OrderRow {
  cityId: number;
  serviceId: number;
  queueId: number | null;
  rateId: number | null;
  regionId: number | null;
  apiKeyId: number | null;
  customerId: number | null;
  driverId: number | null;
  source: "API" | "CONSOLE" | "EXCHANGE" | "SIMULATOR";
  state: OrderState;
  statusCode: number;
  phone: string;
  clientName: string;
  street: string;
  house: string;
  apartment: string;
  entrance: string;
  lat: number;
  lon: number;
  dst: string;
  dstStreet: string;
  dstHouse: string;
  dstLat: number | null;
  dstLon: number | null;
  wayPoints: unknown[];
  comment: string;
  amount: number | null;
  distance: number | null;
  routeTime: number | null;
  priceBreakdown: unknown;
  priceToken: string | null;
  needNotify: boolean;
  preOrderTime: Date | null;
}

// OrderRow names Order's fields (a field renamed in the schema stops compiling here).
export const ORDER_ROW_FIELDS_MATCH: keyof OrderRow extends keyof Prisma.OrderUncheckedCreateInput ? true : never = true;

export interface InsertExtras {
  /** the order's extras with their prices now */
  extras: Array<{ id: number; price: number; count: number }>;
  /** the driver's name, phone and car, when the order is sent to one (for the callback) */
  driver: CallbackSource["driver"];
  /** the integrator's callback URL template (its key's), if any */
  callbackTemplate: string | null;
  actor: Actor;
  /** The request's Idempotency-Key and reply, written by the same statement (both or neither). */
  idempotency?: IdempotentWrite;
}

export type InsertResult = { inserted: true; id: number; uuid: string } | { inserted: false; reason: "BLACKLISTED" };

/** [column, SQL type] of every order column written, in the statement's order. */
export const ORDER_COLUMNS: Array<[string, keyof OrderRow | "uuid" | "clientId" | "now", string]> = [
  ["uuid", "uuid", "uuid"],
  ["city_id", "cityId", "int"],
  ["service_id", "serviceId", "int"],
  ["queue_id", "queueId", "int"],
  ["rate_id", "rateId", "int"],
  ["region_id", "regionId", "int"],
  ["api_key_id", "apiKeyId", "int"],
  ["customer_id", "customerId", "int"],
  ["driver_id", "driverId", "int"],
  ["source", "source", `"OrderSource"`],
  ["state", "state", "text"],
  ["status_code", "statusCode", "int"],
  ["phone", "phone", "text"],
  ["client_name", "clientName", "text"],
  ["street", "street", "text"],
  ["house", "house", "text"],
  ["apartment", "apartment", "text"],
  ["entrance", "entrance", "text"],
  ["lat", "lat", "float8"],
  ["lon", "lon", "float8"],
  ["dst", "dst", "text"],
  ["dst_street", "dstStreet", "text"],
  ["dst_house", "dstHouse", "text"],
  ["dst_lat", "dstLat", "float8"],
  ["dst_lon", "dstLon", "float8"],
  ["way_points", "wayPoints", "jsonb"],
  ["comment", "comment", "text"],
  ["amount", "amount", "int"],
  ["distance", "distance", "int"],
  ["route_time", "routeTime", "int"],
  ["price_breakdown", "priceBreakdown", "jsonb"],
  ["price_token", "priceToken", "text"],
  ["need_notify", "needNotify", "boolean"],
  ["pre_order_time", "preOrderTime", "timestamp"],
  ["created_at", "now", "timestamp"],
  ["updated_at", "now", "timestamp"],
];

// Timestamps are stored as UTC without a zone (as Prisma writes them): an ISO
// string's zone is ignored by a cast to timestamp, whatever the session's.
const utc = (date: Date) => date.toISOString();

export async function insertOrderRow(db: Db | Tx, row: OrderRow, extra: InsertExtras): Promise<InsertResult> {
  const query = rawQuery(db);
  const now = new Date();
  const uuid = randomUUID();
  const params: unknown[] = [];
  const param = (value: unknown, type: string) => {
    params.push(value);
    return `$${params.length}::${type}`;
  };

  // The callback URL may name the order's id, so the id is taken from the
  // sequence first (a second round trip only for keys with a template).
  let id: number | null = null;
  let callback: ReturnType<typeof statusCallback> = null;
  if (extra.callbackTemplate) {
    const [reserved] = await query<{ id: number; bonus: number | null }>(
      `SELECT nextval(pg_get_serial_sequence('orders', 'id'))::int AS id, (SELECT bonus FROM client WHERE phone = $1) AS bonus`,
      [row.phone],
    );
    id = reserved!.id;
    const fields = callbackFields({ ...row, id, uuid, arrivalAt: null, clientBonus: reserved!.bonus, driver: extra.driver }, row.statusCode, row.state);
    callback = statusCallback(extra.callbackTemplate, fields, id, row.apiKeyId);
  }

  const values: Record<string, unknown> = {
    ...row,
    uuid,
    now: utc(now),
    wayPoints: JSON.stringify(row.wayPoints),
    priceBreakdown: row.priceBreakdown === null || row.priceBreakdown === undefined ? null : JSON.stringify(row.priceBreakdown),
    preOrderTime: row.preOrderTime ? utc(row.preOrderTime) : null,
  };
  const phone = param(row.phone, "text");
  const columns = ORDER_COLUMNS.map(([column]) => column);
  const selects = ORDER_COLUMNS.map(([, field, type]) => param(values[field], type));
  if (id !== null) {
    columns.unshift("id");
    selects.unshift(param(id, "int"));
  }
  const parts = [
    `c AS (INSERT INTO client (phone, name)
             SELECT ${phone}, ${param(row.clientName, "text")}
              WHERE NOT EXISTS (SELECT 1 FROM blacklisted_phone WHERE phone = ${phone})
           ON CONFLICT (phone) DO UPDATE SET name = CASE WHEN client.name = '' THEN EXCLUDED.name ELSE client.name END
           RETURNING id)`,
    `o AS (INSERT INTO orders (${columns.join(", ")}, client_id)
           SELECT ${selects.join(", ")}, c.id FROM c
           RETURNING id, uuid)`,
    `h AS (INSERT INTO order_status_change (order_id, from_state, to_state, to_code, actor_type, actor_id, reason, at)
           SELECT o.id, NULL, ${param(row.state, "text")}, ${param(row.statusCode, "int")}, ${param(extra.actor.type, `"ActorType"`)},
                  ${param(extra.actor.id, "text")}, 'created', ${param(utc(now), "timestamp")} FROM o)`,
  ];
  if (extra.extras.length > 0) {
    parts.push(`x AS (INSERT INTO order_extra (order_id, extra_id, count, price)
           SELECT o.id, e.extra_id, e.count, e.price
             FROM o, jsonb_to_recordset(${param(JSON.stringify(extra.extras.map((e) => ({ extra_id: e.id, count: e.count, price: e.price }))), "jsonb")})
                  AS e(extra_id int, count int, price int))`);
  }
  if (row.driverId !== null && row.state === "SENT_TO_DRIVER") {
    parts.push(`d AS (UPDATE driver SET state = 'BUSY' FROM o WHERE driver.id = ${param(row.driverId, "int")})`);
  }
  if (callback) {
    parts.push(`m AS (INSERT INTO outbox_message (delivery_id, channel, topic, ordering_key, target, payload, next_attempt_at, created_at)
           SELECT ${param(randomUUID(), "uuid")}, ${param(callback.channel, "text")}, ${param(callback.topic, "text")}, ${param(callback.orderingKey, "text")},
                  ${param(callback.target, "text")}, ${param(JSON.stringify(callback.payload), "jsonb")}, ${param(utc(now), "timestamp")}, ${param(utc(now), "timestamp")} FROM o)`);
  }
  if (extra.idempotency) {
    const k = extra.idempotency;
    // A second request with this key waits here on the primary key until the
    // first commits, then fails: nothing of it is written (one statement).
    parts.push(`k AS (INSERT INTO idempotency_key (api_key_id, key, operation, fingerprint, reply_status, reply_body, created_at)
           SELECT ${param(k.apiKeyId, "int")}, ${param(k.key, "text")}, ${param(k.operation, "text")}, ${param(k.fingerprint, "text")},
                  ${param(k.replyStatus, "int")}, ${param(JSON.stringify(k.replyBody({ uuid, state: row.state })), "text")}, ${param(utc(now), "timestamp")} FROM o)`);
  }
  const [created] = await query<{ id: number; uuid: string }>(`WITH ${parts.join(",\n")}\nSELECT o.id, o.uuid::text AS uuid FROM o`, params);
  return created ? { inserted: true, id: created.id, uuid: created.uuid } : { inserted: false, reason: "BLACKLISTED" };
}
