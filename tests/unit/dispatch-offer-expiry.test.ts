// A round's sweep of offers past their deadline, set-wise (server/dispatch/answer-offer.ts,
// expireOffers and closeOffersInTx), on the database TEST_DB names. One sweep
// meets every case: LIVE offers whose orders go back to FREE, an order whose
// attempts ran out going on to the radio, a driver whose third timeout in a
// row sets them away, a chained offer (its order never moved), and an offer
// still within its deadline, left alone. On PostgreSQL the sweep costs a
// handful of statements whatever the number of offers.
import { beforeAll, describe, expect, it } from "vitest";
import { makeDrivers, makeOrders, offerOf as offer, statementsSent, useOfferDb } from "../support/offer-fixtures";

const db = useOfferDb();
const TEST_DB = db.kind;
const q = db.q;

beforeAll(async () => {
  // The service's rule: three attempts, then the radio.
  await q(`INSERT INTO dispatch_setting (service_id, attempts, updated_at) VALUES ($1, 3, now())`, [db.city().service_id]);
});

describe(`a round's sweep of expired offers, set-wise (${TEST_DB})`, () => {
  it("closes every offer past its deadline as one would be closed, and leaves the rest", async () => {
    const { sweepOffers } = await import("@/server/dispatch/round");
    const d = await makeDrivers(q, db.city(), "EX", 4);
    const [chained] = await makeDrivers(q, db.city(), "EC", 1, "BUSY");
    const o = await makeOrders(q, db.city(), 5);
    // The second driver has let two offers in a row time out; the third order has had two attempts.
    await q(`UPDATE driver SET missed_offers = 2 WHERE id = $1`, [d[1]]);
    await q(`INSERT INTO dispatch_order (order_id, attempts) VALUES ($1, 2)`, [o[2]]);
    const made = await db.modules().batch.makeOffers(db.modules().db.db(), [offer(o[0]!, d[0]!), offer(o[1]!, d[1]!), offer(o[2]!, d[2]!), offer(o[3]!, d[3]!), offer(o[4]!, chained!, "CHAIN")]);
    expect(made.map((m) => Object.keys(m)[0])).toEqual(["made", "made", "made", "made", "made"]);
    // All past their deadline but the fourth.
    await q(`UPDATE dispatch_offer SET deadline = now() - interval '1 second' WHERE order_id = ANY($1::int[]) AND order_id <> $2`, [o, o[3]]);

    const before = await statementsSent();
    const expired = await sweepOffers(db.modules().db.db());
    const sent = (await statementsSent()) - before;
    expect(expired).toBe(4);
    // The sweep's reads, BEGIN, the orders' and the offers' locks, the offers closed, the orders back to FREE, the timeouts (read, written),
    // the escalation (read, the radio's time, the move), COMMIT: one offer at a time cost about ten statements an offer.
    if (TEST_DB === "postgres") expect(sent).toBeLessThanOrEqual(14);

    const states = new Map(
      (await q<{ id: number; state: string; driver_id: number | null }>(`SELECT id, state, driver_id FROM orders WHERE id = ANY($1::int[])`, [o])).map((r) => [r.id, [r.state, r.driver_id]]),
    );
    expect(states.get(o[0]!)).toEqual(["FREE", null]);
    expect(states.get(o[1]!)).toEqual(["FREE", null]);
    expect(states.get(o[2]!)).toEqual(["ORDER_ON_RADIO", null]);
    expect(states.get(o[3]!)).toEqual(["SENT_TO_DRIVER", d[3]]);
    expect(states.get(o[4]!)).toEqual(["FREE", null]);

    const offers = await q<{ order_id: number; state: string; reason: string }>(`SELECT order_id, state::text AS state, reason FROM dispatch_offer WHERE order_id = ANY($1::int[]) ORDER BY order_id`, [o]);
    expect(offers.map((f) => [f.order_id, f.state])).toEqual([
      [o[0], "TIMED_OUT"],
      [o[1], "TIMED_OUT"],
      [o[2], "TIMED_OUT"],
      [o[3], "LIVE"],
      [o[4], "TIMED_OUT"],
    ]);
    expect(offers[0]!.reason).toBe("no answer from EX1 in time");
    expect(offers[4]!.reason).toBe("no answer from EC1 in time");

    const history = await q<{ order_id: number; from_state: string; to_state: string; reason: string }>(
      `SELECT order_id, from_state, to_state, reason FROM order_status_change WHERE order_id = ANY($1::int[]) ORDER BY id`,
      [[o[0], o[2], o[4]]],
    );
    expect(history.filter((h) => h.order_id === o[0]).map((h) => [h.from_state, h.to_state, h.reason])).toEqual([
      ["FREE", "SENT_TO_DRIVER", expect.stringMatching(/^offered to EX1/)],
      ["SENT_TO_DRIVER", "FREE", "no answer from EX1 in time"],
    ]);
    expect(history.filter((h) => h.order_id === o[2]).map((h) => [h.from_state, h.to_state, h.reason])).toEqual([
      ["FREE", "SENT_TO_DRIVER", expect.stringMatching(/^offered to EX3, answer within 20 s \(attempt 3/)],
      ["SENT_TO_DRIVER", "FREE", "no answer from EX3 in time"],
      ["FREE", "ORDER_ON_RADIO", "nobody accepted after 3 offers: on the radio"],
    ]);
    // A chained offer never moved its order.
    expect(history.filter((h) => h.order_id === o[4])).toEqual([]);
    const radio = await q<{ radio: boolean }>(`SELECT radio_at IS NOT NULL AS radio FROM dispatch_order WHERE order_id = $1`, [o[2]]);
    expect(radio[0]!.radio).toBe(true);

    const driverRows = new Map(
      (await q<{ id: number; state: string; missed_offers: number; away: boolean }>(`SELECT id, state::text AS state, missed_offers, away_since IS NOT NULL AS away FROM driver WHERE id = ANY($1::int[])`, [[...d, chained]])).map((r) => [
        r.id,
        [r.state, r.missed_offers, r.away],
      ]),
    );
    expect(driverRows.get(d[0]!)).toEqual(["FREE", 1, false]);
    expect(driverRows.get(d[1]!)).toEqual(["FREE", 3, true]);
    expect(driverRows.get(d[2]!)).toEqual(["FREE", 1, false]);
    expect(driverRows.get(d[3]!)).toEqual(["BUSY", 0, false]);
    expect(driverRows.get(chained!)).toEqual(["BUSY", 1, false]);

    // A second sweep finds nothing more to close.
    expect(await sweepOffers(db.modules().db.db())).toBe(0);
  });
});
