// Drivers' refusals in sets (server/dispatch/refusals.ts), on the database
// TEST_DB names: refusals that arrive together are judged each as one would
// be — the driver's live offer closed with the driver's words, the order back
// to FREE by the driver, the next candidate free to get it; a refusal of an
// order the driver holds no offer of changes nothing; an order that does not
// exist is that caller's error alone — and on PostgreSQL they cost a handful
// of statements together.
import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { makeDrivers, makeOrders, offerOf, statementsSent, useOfferDb } from "../support/offer-fixtures";

const db = useOfferDb();
const TEST_DB = db.kind;
const q = db.q;

describe(`drivers' refusals in sets (${TEST_DB})`, () => {
  it("each refusal judged as one would be, together in a few statements", async () => {
    const { refuseOfferInSet } = await import("@/server/dispatch/refusals");
    const d = await makeDrivers(q, db.city(), "RF", 7);
    const o = await makeOrders(q, db.city(), 6);
    const made = await db.modules().batch.makeOffers(db.modules().db.db(), o.map((orderId, k) => offerOf(orderId, d[k]!)));
    expect(made.every((m) => "made" in m)).toBe(true);
    const uuids = new Map((await q<{ id: number; uuid: string }>(`SELECT id, uuid::text AS uuid FROM orders WHERE id = ANY($1::int[])`, [o])).map((r) => [r.id, r.uuid]));
    const driver = (k: number) => ({ id: d[k]!, callSign: `RF${k + 1}` });

    const before = await statementsSent();
    const answers = await Promise.allSettled([
      refuseOfferInSet(db.modules().db.db(), driver(0), { uuid: uuids.get(o[0]!)! }, "далеко"),
      refuseOfferInSet(db.modules().db.db(), driver(1), { uuid: uuids.get(o[1]!)! }),
      refuseOfferInSet(db.modules().db.db(), driver(2), { uuid: uuids.get(o[2]!)! }, "пробка"),
      refuseOfferInSet(db.modules().db.db(), driver(3), { uuid: uuids.get(o[3]!)! }),
      // The seventh driver holds no offer of the fifth order: nothing changes.
      refuseOfferInSet(db.modules().db.db(), driver(6), { uuid: uuids.get(o[4]!)! }),
      // No such order: this caller's error, not the others'.
      refuseOfferInSet(db.modules().db.db(), driver(5), { uuid: randomUUID() }),
    ]);
    const sent = (await statementsSent()) - before;
    expect(answers.slice(0, 5).map((a) => (a.status === "fulfilled" ? a.value : a.reason))).toEqual([{ orderId: o[0] }, { orderId: o[1] }, { orderId: o[2] }, { orderId: o[3] }, undefined]);
    expect(answers[5].status).toBe("rejected");
    expect(((answers[5] as PromiseRejectedResult).reason as { code: string }).code).toBe("NOT_FOUND");
    // BEGIN, the orders' locks, the offers' locks, the offers closed, the orders back to FREE, the escalation's read, COMMIT (and the rule's read
    // when its cache ran out): one refusal at a time cost about six each.
    if (TEST_DB === "postgres") expect(sent).toBeLessThanOrEqual(9);

    const states = new Map((await q<{ id: number; state: string; driver_id: number | null }>(`SELECT id, state, driver_id FROM orders WHERE id = ANY($1::int[])`, [o])).map((r) => [r.id, [r.state, r.driver_id]]));
    for (const k of [0, 1, 2, 3]) expect(states.get(o[k]!)).toEqual(["FREE", null]);
    expect(states.get(o[4]!)).toEqual(["SENT_TO_DRIVER", d[4]]);
    expect(states.get(o[5]!)).toEqual(["SENT_TO_DRIVER", d[5]]);

    const offers = await q<{ order_id: number; state: string; reason: string }>(`SELECT order_id, state::text AS state, reason FROM dispatch_offer WHERE order_id = ANY($1::int[]) ORDER BY order_id`, [o]);
    expect(offers.map((f) => [f.state, f.reason])).toEqual([
      ["REFUSED", "refused by RF1: далеко"],
      ["REFUSED", "refused by RF2"],
      ["REFUSED", "refused by RF3: пробка"],
      ["REFUSED", "refused by RF4"],
      ["LIVE", ""],
      ["LIVE", ""],
    ]);
    const history = await q<{ order_id: number; to_state: string; actor_type: string; actor_id: string | null; reason: string }>(
      `SELECT order_id, to_state, actor_type::text AS actor_type, actor_id, reason FROM order_status_change WHERE order_id = $1 ORDER BY id`,
      [o[0]],
    );
    expect(history.map((h) => [h.to_state, h.actor_type, h.actor_id])).toEqual([
      ["SENT_TO_DRIVER", "SYSTEM", null],
      ["FREE", "DRIVER", "RF1"],
    ]);
    const driverStates = await q<{ state: string }>(`SELECT state::text AS state FROM driver WHERE id = ANY($1::int[]) ORDER BY id`, [d]);
    expect(driverStates.map((r) => r.state)).toEqual(["FREE", "FREE", "FREE", "FREE", "BUSY", "BUSY", "FREE"]);

    // The same driver refusing again: no live offer any more.
    expect(await refuseOfferInSet(db.modules().db.db(), driver(0), { uuid: uuids.get(o[0]!)! })).toBeUndefined();
  });

  it("a set that fails as a whole is refused one at a time: the failing refusal is its caller's error, the others land", async () => {
    const { refuseOfferInSet } = await import("@/server/dispatch/refusals");
    const d = await makeDrivers(q, db.city(), "RG", 3);
    const o = await makeOrders(q, db.city(), 3);
    await db.modules().batch.makeOffers(db.modules().db.db(), o.map((orderId, k) => offerOf(orderId, d[k]!)));
    const uuids = new Map((await q<{ id: number; uuid: string }>(`SELECT id, uuid::text AS uuid FROM orders WHERE id = ANY($1::int[])`, [o])).map((r) => [r.id, r.uuid]));
    // The database refuses to close the second order's offer (as a deadlock or a lost connection would fail the set).
    await q(`CREATE FUNCTION refuse_test_refusal() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN IF NEW.order_id = ${o[1]} AND NEW.state = 'REFUSED' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`);
    await q(`CREATE TRIGGER refuse_test_refusal BEFORE UPDATE ON dispatch_offer FOR EACH ROW EXECUTE FUNCTION refuse_test_refusal()`);
    try {
      const answers = await Promise.allSettled(o.map((orderId, k) => refuseOfferInSet(db.modules().db.db(), { id: d[k]!, callSign: `RG${k + 1}` }, { uuid: uuids.get(orderId)! })));
      expect(answers.map((a) => a.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
      const states = await q<{ state: string }>(`SELECT state FROM orders WHERE id = ANY($1::int[]) ORDER BY id`, [o]);
      expect(states.map((r) => r.state)).toEqual(["FREE", "SENT_TO_DRIVER", "FREE"]);
    } finally {
      await q(`DROP TRIGGER refuse_test_refusal ON dispatch_offer`);
    }
  });
});
