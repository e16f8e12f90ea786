// The exchange's SQL for its hot path: who is interested in an order, and a
// new order's registration in one statement. Raw SQL because registration
// through Prisma was an interactive transaction of about twelve statements,
// each through the client's query compiler (docs/performance.md: 58–104
// registrations/s); one statement is one round trip and atomic by itself.
// Tested on both databases by tests/integration/exchange-*.test.ts and
// tests/unit/exchange-data.test.ts.
import type { DbOrTx } from "../db";
import { rawQuery } from "../db/sql";

/**
 * Participants able to take an order of this car class (docs/exchange.md,
 * "Who is offered an order"): active, with a server to be told at, and
 *   - an executor service of that class, or of a class the exchange could
 *     not derive (car_class null: every class), or
 *   - an executor service and a known driver of that class, or
 *   - an open session and no service read yet (GET /services is asked when
 *     the session opens; until it answers the participant is offered every class).
 * `carClass` and `exclude` are the SQL of the car class and of the
 * participants left out (an int[]).
 */
function interestedSql(carClass: string, exclude: string): string {
  return `
  SELECT p.id FROM exchange_participant p
   WHERE NOT p.disabled AND p.id <> ALL(${exclude})
     AND EXISTS (SELECT 1 FROM exchange_server s WHERE s.participant_id = p.id AND s.url <> '')
     AND (EXISTS (SELECT 1 FROM exchange_service v WHERE v.participant_id = p.id AND v.executes AND (v.car_class = ${carClass} OR v.car_class IS NULL))
          OR (EXISTS (SELECT 1 FROM exchange_service v WHERE v.participant_id = p.id AND v.executes)
              AND EXISTS (SELECT 1 FROM exchange_driver d WHERE d.participant_id = p.id AND d.car_class = ${carClass}))
          OR (NOT EXISTS (SELECT 1 FROM exchange_service v WHERE v.participant_id = p.id)
              AND EXISTS (SELECT 1 FROM exchange_session x WHERE x.participant_id = p.id AND x.revoked_at IS NULL)
              AND NOT EXISTS (SELECT 1 FROM exchange_server s WHERE s.participant_id = p.id AND s.services_at IS NOT NULL)))`;
}

export async function selectInterested(db: DbOrTx, carClass: number, exclude: number[]): Promise<number[]> {
  const rows = await rawQuery(db)<{ id: number }>(`${interestedSql("$1::int", "$2::int[]")} ORDER BY p.id`, [carClass, exclude]);
  return rows.map((r) => Number(r.id));
}

/** A notification of the registration, without the order's id (the statement adds `id` to `data`). */
export interface RegistrationMessage {
  /** "seller", or "interested": one message to each interested participant. */
  to: "seller" | "interested";
  topic: string;
  data: Record<string, unknown>;
  /** Only when this is a registration again (`registration` > 1): the seller's `restore`. */
  againOnly?: boolean;
}

export interface RegistrationRow {
  /** The new exchange order, or null when none was made. */
  id: number | null;
  registration: number | null;
  /** The seller's open order of this id, when there is one (nothing was made). */
  existingId: number | null;
  /** How many participants were interested (0: nothing was made; the caller refuses it the long way). */
  interested: number;
}

/**
 * Registers a new exchange order in one statement: the order (FREE), its two
 * history entries (sent by the seller; registered), an offer to each
 * interested participant and the notifications in the outbox, in the order
 * of `messages` (per receiver, at its first server with a URL; a receiver
 * without one is not told, as notify() does). Nothing is written when the
 * seller has an open order of this id (`existingId`) or nobody is
 * interested (`interested` 0). Two of these at once for one seller id: the
 * unique (seller, id, registration) makes one fail; the caller tries again
 * and finds the other's order.
 */
export async function insertRegistration(
  db: DbOrTx,
  input: {
    sellerId: number;
    sourceOrderId: string;
    attributes: unknown;
    fare: number;
    carClass: number;
    state: string;
    statusCode: number;
    notRegisteredCode: number;
    vendor: string;
    messages: RegistrationMessage[];
  },
): Promise<RegistrationRow> {
  const rows = await rawQuery(db)<RegistrationRow>(
    `WITH latest AS (
       SELECT id, registration, status_code FROM exchange_order
        WHERE seller_id = $1::int AND source_order_id = $2::text ORDER BY registration DESC LIMIT 1),
     interested AS (${interestedSql("$5::int", "ARRAY[$1::int]")}),
     made AS (
       INSERT INTO exchange_order (seller_id, source_order_id, registration, attributes, fare, car_class, state, status_code, updated_at)
       SELECT $1::int, $2::text, COALESCE((SELECT registration FROM latest), 0) + 1, $3::jsonb, $4::int, $5::int, $6::text, $7::int, now()
        WHERE NOT EXISTS (SELECT 1 FROM latest WHERE status_code < 90) AND EXISTS (SELECT 1 FROM interested)
       RETURNING id, registration),
     history AS (
       INSERT INTO exchange_status_change (exchange_order_id, from_state, to_state, to_code, participant_id, reason)
       SELECT made.id, h.from_state, h.to_state, h.to_code, h.participant_id, h.reason FROM made,
              (VALUES (1, NULL::text, 'NOT_REGISTERED', $8::int, $1::int, 'sent by the seller'),
                      (2, 'NOT_REGISTERED', $6::text, $7::int, NULL::int, 'registered')) AS h(n, from_state, to_state, to_code, participant_id, reason)
        ORDER BY h.n),
     offers AS (
       INSERT INTO exchange_offer (exchange_order_id, participant_id) SELECT made.id, i.id FROM made, interested i),
     receivers AS (
       SELECT m.n, m.e->>'topic' AS topic, m.e->'data' AS data, CASE WHEN m.e->>'recipient' = 'seller' THEN $1::int ELSE i.id END AS participant_id
         FROM jsonb_array_elements($9::jsonb) WITH ORDINALITY AS m(e, n)
         LEFT JOIN interested i ON m.e->>'recipient' = 'interested'
         CROSS JOIN made
        WHERE (m.e->>'recipient' = 'seller' OR i.id IS NOT NULL) AND (NOT (m.e->>'again_only')::boolean OR made.registration > 1)),
     urls AS (
       SELECT DISTINCT ON (s.participant_id) s.participant_id, rtrim(s.url, '/') AS url FROM exchange_server s
        WHERE s.participant_id IN (SELECT participant_id FROM receivers) AND s.url <> '' ORDER BY s.participant_id, s.id),
     outbox AS (
       INSERT INTO outbox_message (delivery_id, channel, topic, ordering_key, target, payload)
       SELECT q.delivery_id, 'exchange', q.topic, 'exchange:p' || q.participant_id || ':o' || made.id, u.url || '/on/' || q.topic,
              jsonb_build_object('meta', jsonb_build_object('deliveryId', q.delivery_id, 'vendor', $10::text, 'topic', q.topic),
                                 'data', q.data || jsonb_build_object('id', made.id::text))
         FROM (SELECT r.*, gen_random_uuid() AS delivery_id FROM receivers r) q
         JOIN urls u ON u.participant_id = q.participant_id CROSS JOIN made
        ORDER BY q.n, q.participant_id)
     SELECT (SELECT id FROM made) AS id, (SELECT registration FROM made) AS registration,
            (SELECT id FROM latest WHERE status_code < 90) AS "existingId", (SELECT count(*)::int FROM interested) AS interested`,
    [
      input.sellerId,
      input.sourceOrderId,
      JSON.stringify(input.attributes),
      input.fare,
      input.carClass,
      input.state,
      input.statusCode,
      input.notRegisteredCode,
      JSON.stringify(input.messages.map((m) => ({ recipient: m.to, topic: m.topic, data: m.data, again_only: m.againOnly ?? false }))),
      input.vendor,
    ],
  );
  const row = rows[0]!;
  return { id: row.id === null ? null : Number(row.id), registration: row.registration === null ? null : Number(row.registration), existingId: row.existingId === null ? null : Number(row.existingId), interested: Number(row.interested) };
}
