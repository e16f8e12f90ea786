// The facts of each order created in a period, as one SQL common table
// expression the orders, waits and dispatch reports share. They are read from
// order_fact (one row per order: when it was first offered — a dispatch offer,
// or a move to SENT_TO_DRIVER / the radio —, when a driver took it — CONFIRMED,
// BOUND or PREORDER_ATTACHED —, when the car stood at the pickup, how it ended
// and who made the last move), which database triggers keep in the same
// transaction as every change of the order, its history, offers and exchange
// link (migration order_facts; the view order_fact_source is the same facts
// computed from those raw tables). Reading one narrow row per order instead of
// aggregating the history is what keeps a month of a million orders within the
// goal (docs/reports.md, "Speed").
import { createdInPeriod, type Scope, type Sql } from "./scope";

/**
 * `WITH facts AS (...)`: one row per order with
 *   id, created_at, state, status_code, service_id, region_id, driver_id, source, amount, preorder,
 *   offered_at, accepted_at, at_pickup_at, completed_at, offers (count), first_source (first offer's source),
 *   done (bool), final_actor, final_reason (of the last move, for finished orders), bought, sold (exchange),
 *   outcome (completed, lost — finished with no driver ever taking it, by the system or as "no cars" —, cancelled, open),
 *   offer_ms, accept_ms, pickup_ms (the waits from creation, whole milliseconds: exactly the timestamps' difference).
 */
export function factsCte(sql: Sql, scope: Scope): string {
  return `WITH facts AS (
      SELECT f.order_id AS id, f.created_at, f.state, f.status_code, f.service_id, f.region_id, f.driver_id, f.source::text AS source,
             f.amount, f.preorder, f.offered_at, f.accepted_at, f.at_pickup_at, f.completed_at, f.offers, f.first_source,
             f.status_code >= 90 AS done,
             CASE WHEN f.status_code >= 90 THEN f.last_actor END AS final_actor,
             CASE WHEN f.status_code >= 90 THEN f.last_reason END AS final_reason,
             f.bought, f.sold, f.outcome, f.offer_ms, f.accept_ms, f.pickup_ms
        FROM order_fact f
       WHERE ${createdInPeriod(sql, scope, "f")}
    )`;
}
