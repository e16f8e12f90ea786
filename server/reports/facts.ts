// The facts of each order created in a period, as one SQL common table
// expression the orders, waits and dispatch reports share: when it was first
// offered (a dispatch offer, or a move to SENT_TO_DRIVER / the radio), when a
// driver took it (CONFIRMED, BOUND or PREORDER_ATTACHED: the state machine's
// only ways to a driver), when the car stood at the pickup (AWAITING_CLIENT),
// how it ended and who ended it. Read from the order history
// (order_status_change, index [order_id, id]) and the offers
// (dispatch_offer, index [order_id, sent_at]) of those orders only.
import { createdInPeriod, type Scope, type Sql } from "./scope";

/** States in which a driver has taken the order. */
export const TAKEN_STATES = ["CONFIRMED", "BOUND", "PREORDER_ATTACHED"];
/** Final states that mean nobody took it, when no driver ever had. */
export const NO_CAR_STATES = ["DONE_NO_CARS"];

/**
 * `WITH o AS (...), facts AS (...)`: one row per order with
 *   id, created_at, state, status_code, service_id, region_id, driver_id, source, amount, phone, preorder,
 *   offered_at, accepted_at, at_pickup_at, completed_at, offers (count), first_source (first offer's source),
 *   done (bool), final_actor, final_reason (of the last move, for finished orders), bought, sold (exchange).
 */
export function factsCte(sql: Sql, scope: Scope): string {
  const taken = TAKEN_STATES.map((s) => `'${s}'`).join(", ");
  return `WITH o AS (
      SELECT o.id, o.created_at, o.state, o.status_code, o.service_id, o.region_id, o.driver_id, o.source::text AS source,
             o.amount, o.phone, o.pre_order_time IS NOT NULL AS preorder
        FROM orders o
       WHERE ${createdInPeriod(sql, scope)}
    ), h AS (
      SELECT c.order_id,
             min(c.at) FILTER (WHERE c.to_state IN ('SENT_TO_DRIVER', 'ORDER_ON_RADIO')) AS moved_offered_at,
             min(c.at) FILTER (WHERE c.to_state IN (${taken})) AS accepted_at,
             min(c.at) FILTER (WHERE c.to_state = 'AWAITING_CLIENT') AS at_pickup_at,
             min(c.at) FILTER (WHERE c.to_state = 'DONE_SUCCESSFUL') AS completed_at
        FROM order_status_change c JOIN o ON o.id = c.order_id
       GROUP BY c.order_id
    ), f AS (
      SELECT d.order_id, min(d.sent_at) AS sent_at, count(*)::int AS offers,
             (array_agg(d.source ORDER BY d.sent_at, d.id))[1] AS first_source
        FROM dispatch_offer d JOIN o ON o.id = d.order_id
       GROUP BY d.order_id
    ), facts AS (
      SELECT o.*, LEAST(f.sent_at, h.moved_offered_at) AS offered_at, h.accepted_at, h.at_pickup_at, h.completed_at,
             COALESCE(f.offers, 0) AS offers, f.first_source,
             o.status_code >= 90 AS done, last.actor_type AS final_actor, last.reason AS final_reason,
             x.role = 'BOUGHT' AS bought, x.role = 'SOLD' AS sold
        FROM o
        LEFT JOIN h ON h.order_id = o.id
        LEFT JOIN f ON f.order_id = o.id
        LEFT JOIN exchange_link x ON x.order_id = o.id
        LEFT JOIN LATERAL (
          SELECT c.actor_type::text AS actor_type, c.reason FROM order_status_change c
           WHERE o.status_code >= 90 AND c.order_id = o.id ORDER BY c.id DESC LIMIT 1
        ) last ON TRUE
    )`;
}

/** The outcome of a fact row: completed, lost (finished with no driver ever taking it, by the system or as "no cars"), cancelled, or open. */
export const OUTCOME_SQL = `CASE
    WHEN state = 'DONE_SUCCESSFUL' THEN 'completed'
    WHEN done AND accepted_at IS NULL AND (state IN (${NO_CAR_STATES.map((s) => `'${s}'`).join(", ")}) OR final_actor = 'SYSTEM') THEN 'lost'
    WHEN done THEN 'cancelled'
    ELSE 'open' END`;
