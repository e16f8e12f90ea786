// A round's offers set-wise (server/dispatch/offer.ts, makeOffersInTx; the
// batches in server/dispatch/offer-batch.ts), on the database TEST_DB names.
// One set holds every case a round meets: each refusal is judged under
// the locks as a single offer's would be and leaves its order and driver as
// they were, the others land with their moves and history, an order on the
// radio goes back to FREE first, a chained offer leaves its order where it
// is, and the set costs a few statements whatever its size. A set that
// fails as a whole is made again one offer at a time.
import { describe, expect, it } from "vitest";
import { makeDrivers, makeOrders, offerOf as offer, statementsSent, useOfferDb } from "../support/offer-fixtures";

const db = useOfferDb();
const TEST_DB = db.kind;
const q = db.q;

describe(`a round's offers set-wise (${TEST_DB})`, () => {
  it("judges each pair under the locks as one offer would, and the rest land with their moves", async () => {
    const d = await makeDrivers(q, db.city(), "ST", 12);
    const o = await makeOrders(q, db.city(), 12);
    const [busy] = await makeDrivers(q, db.city(), "SB", 1, "BUSY");
    const [chained] = await makeDrivers(q, db.city(), "SC", 1, "BUSY");
    const [radio] = await makeOrders(q, db.city(), 1, "ORDER_ON_RADIO");
    const [done] = await makeOrders(q, db.city(), 1, "DONE_CANCELLED");
    const [elsewhere] = await makeOrders(q, db.city(), 1);
    // Pair 1: automatic dispatch of the order paused. Pair 2: the driver off the line. Pair 3: on a break.
    // Pair 4: the driver answering an offer of another order. Pair 5: the order already offered to someone else.
    await q(`INSERT INTO dispatch_order (order_id, paused) VALUES ($1, true)`, [o[1]]);
    await q(`UPDATE driver SET active = false WHERE id = $1`, [d[2]]);
    await q(`INSERT INTO driver_break (driver_id) VALUES ($1)`, [d[3]]);
    await q(
      `INSERT INTO dispatch_offer (order_id, driver_id, attempt, kind, source, deadline) VALUES ($1, $2, 1, 'ADVANCE', 'AUTO', now() + interval '1 minute')`,
      [elsewhere, d[4]],
    );
    const [other] = await makeDrivers(q, db.city(), "SO", 1);
    await q(
      `INSERT INTO dispatch_offer (order_id, driver_id, attempt, kind, source, deadline) VALUES ($1, $2, 1, 'ADVANCE', 'AUTO', now() + interval '1 minute')`,
      [o[5], other],
    );
    // The order's earlier attempts count on.
    await q(`INSERT INTO dispatch_order (order_id, attempts) VALUES ($1, 3)`, [o[0]]);
    const inputs = [
      offer(o[0]!, d[0]!),
      offer(o[1]!, d[1]!),
      offer(o[2]!, d[2]!),
      offer(o[3]!, d[3]!),
      offer(o[4]!, d[4]!),
      offer(o[5]!, d[5]!),
      offer(o[6]!, busy!),
      offer(done!, d[7]!),
      offer(radio!, d[8]!),
      offer(o[9]!, chained!, "CHAIN"),
      offer(o[10]!, d[10]!),
      offer(o[11]!, d[11]!),
    ];
    const before = await statementsSent();
    const outcomes = await db.modules().batch.makeOffers(db.modules().db.db(), inputs);
    const sent = (await statementsSent()) - before;
    const judged = outcomes.map((x) => ("made" in x ? "made" : "refused" in x ? (x.refused as { details: { reasonKey?: string; what?: string } }).details.reasonKey ?? (x.refused as { details: { reason?: string; what?: string } }).details.what ?? (x.refused as { details: { reason?: string } }).details.reason : "failed"));
    expect(judged).toEqual([
      "made",
      "automatic dispatch of the order is paused",
      "Driver",
      "driverOnBreak",
      "driverOffered",
      "alreadyOffered",
      "driverNotFree",
      "orderNotFree",
      "made",
      "made",
      "made",
      "made",
    ]);
    // BEGIN, the orders' locks, the checks, the offers, the radio order's move to FREE (its lock and the move), the moves to SENT_TO_DRIVER, COMMIT:
    // a handful, where one offer at a time sent 56 (the statements are counted on PostgreSQL's pool only).
    if (TEST_DB === "postgres") expect(sent).toBeLessThanOrEqual(9);

    const rows = await q<{ id: number; state: string; driver_id: number | null }>(`SELECT id, state, driver_id FROM orders WHERE id = ANY($1::int[]) ORDER BY id`, [
      [...o, radio, done],
    ]);
    const stateOf = new Map(rows.map((r) => [r.id, [r.state, r.driver_id]]));
    expect(stateOf.get(o[0]!)).toEqual(["SENT_TO_DRIVER", d[0]]);
    for (const k of [1, 2, 3, 4, 5, 6]) expect(stateOf.get(o[k]!)).toEqual(["FREE", null]);
    expect(stateOf.get(done!)).toEqual(["DONE_CANCELLED", null]);
    expect(stateOf.get(radio!)).toEqual(["SENT_TO_DRIVER", d[8]]);
    // A chained offer leaves its order free until the driver accepts.
    expect(stateOf.get(o[9]!)).toEqual(["FREE", null]);
    expect(stateOf.get(o[10]!)).toEqual(["SENT_TO_DRIVER", d[10]]);

    const driverStates = await q<{ id: number; state: string }>(`SELECT id, state::text AS state FROM driver WHERE id = ANY($1::int[]) ORDER BY id`, [[...d, busy, chained]]);
    const driverState = new Map(driverStates.map((r) => [r.id, r.state]));
    for (const k of [0, 8, 10, 11]) expect(driverState.get(d[k]!)).toBe("BUSY");
    for (const k of [1, 2, 3, 4, 5, 7]) expect(driverState.get(d[k]!)).toBe("FREE");

    const history = await q<{ order_id: number; from_state: string; to_state: string; reason: string }>(
      `SELECT order_id, from_state, to_state, reason FROM order_status_change WHERE order_id = ANY($1::int[]) ORDER BY id`,
      [[o[0], radio, o[1], o[9]]],
    );
    expect(history.filter((h) => h.order_id === o[0]).map((h) => [h.from_state, h.to_state])).toEqual([["FREE", "SENT_TO_DRIVER"]]);
    expect(history.find((h) => h.order_id === o[0])!.reason).toMatch(/^offered to ST1, answer within 20 s \(attempt 4, AUTO\)$/);
    expect(history.filter((h) => h.order_id === radio).map((h) => [h.from_state, h.to_state])).toEqual([
      ["ORDER_ON_RADIO", "FREE"],
      ["FREE", "SENT_TO_DRIVER"],
    ]);
    expect(history.filter((h) => h.order_id === o[1] || h.order_id === o[9])).toEqual([]);

    const offers = await q<{ order_id: number; driver_id: number; attempt: number; kind: string }>(
      `SELECT order_id, driver_id, attempt, kind::text AS kind FROM dispatch_offer WHERE state = 'LIVE' AND order_id = ANY($1::int[]) ORDER BY order_id`,
      [[...o, radio]],
    );
    expect(offers).toEqual(
      [
        { order_id: o[0], driver_id: d[0], attempt: 4, kind: "LIVE" },
        { order_id: o[5], driver_id: other, attempt: 1, kind: "ADVANCE" },
        { order_id: o[9], driver_id: chained, attempt: 1, kind: "CHAIN" },
        { order_id: o[10], driver_id: d[10], attempt: 1, kind: "LIVE" },
        { order_id: o[11], driver_id: d[11], attempt: 1, kind: "LIVE" },
        { order_id: radio, driver_id: d[8], attempt: 1, kind: "LIVE" },
      ].sort((a, b) => a.order_id! - b.order_id!),
    );
    const attempts = await q<{ order_id: number; attempts: number }>(`SELECT order_id, attempts FROM dispatch_order WHERE order_id = ANY($1::int[]) ORDER BY order_id`, [[o[0], o[1], o[9]]]);
    expect(attempts).toEqual([
      { order_id: o[0], attempts: 4 },
      { order_id: o[1], attempts: 0 },
      { order_id: o[9], attempts: 1 },
    ]);
  });

  it("a set that fails as a whole (an order gone) is made one offer at a time: the others land", async () => {
    const d = await makeDrivers(q, db.city(), "SF", 3);
    const o = await makeOrders(q, db.city(), 2);
    const outcomes = await db.modules().batch.makeOffers(db.modules().db.db(), [offer(o[0]!, d[0]!), offer(2_000_000_000, d[1]!), offer(o[1]!, d[2]!)]);
    expect(outcomes.map((x) => Object.keys(x)[0])).toEqual(["made", "failed", "made"]);
    const rows = await q<{ state: string }>(`SELECT state FROM orders WHERE id = ANY($1::int[]) ORDER BY id`, [o]);
    expect(rows.map((r) => r.state)).toEqual(["SENT_TO_DRIVER", "SENT_TO_DRIVER"]);
    const free = await q<{ state: string }>(`SELECT state::text AS state FROM driver WHERE id = $1`, [d[1]]);
    expect(free[0]!.state).toBe("FREE");
  });
});
