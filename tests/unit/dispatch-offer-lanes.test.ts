// A round's offers in several transactions at once (server/dispatch/offer-batch.ts,
// DISPATCH_OFFER_LANES), on PostgreSQL whatever TEST_DB says: the embedded
// database has one connection and makes them in one lane. Each outcome comes
// back at its input's place, each made offer is its own order's and driver's,
// and a refused one leaves its order free while the lanes beside it land.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openOwnPostgres } from "../support/local-db";
import { offerModules, type OfferModules } from "../support/offer-modules";
import { SYSTEM_ACTOR } from "@/server/actor";
import type { MakeOfferInput } from "@/server/dispatch/offer";

let close: () => Promise<void> = async () => undefined;
let s: OfferModules;

beforeAll(async () => {
  ({ close } = await openOwnPostgres());
  s = await offerModules();
}, 180_000);

afterAll(async () => {
  await close();
});

describe("a round's offers in three lanes at once (PostgreSQL)", () => {
  it("each outcome at its input's place, a refused offer alone left out", async () => {
    const q = <T,>(text: string, params: unknown[] = []) => s.sql.sqlQuery<T>(s.db.db(), text, params);
    const [city] = await q<{ id: number; service_id: number; lat: number; lon: number }>(
      `SELECT c.id, s.id AS service_id, c.lat, c.lon FROM city c JOIN service s ON s.city_id = c.id ORDER BY c.id, s.id LIMIT 1`,
    );
    const more = (
      await q<{ id: number }>(
        `INSERT INTO driver (city_id, call_sign, first_name, phone, state, balance, lat, lon, position_at, app_seen_at)
         SELECT $1, 'LN' || i, 'Тест', '+7916556000' || i, 'FREE', 0, $2, $3, now(), now() FROM generate_series(1, 9) i RETURNING id`,
        [city!.id, city!.lat, city!.lon],
      )
    ).map((r) => r.id);
    const theirs = (
      await q<{ id: number }>(
        `INSERT INTO orders (uuid, city_id, service_id, state, status_code, phone, street, house, lat, lon, amount, updated_at, created_at)
         SELECT gen_random_uuid(), $1, $2, 'FREE', 9, '+7917556000' || i, 'ул. Полос', '1', $3, $4, 30000, now(), now()
           FROM generate_series(1, 9) i RETURNING id`,
        [city!.id, city!.service_id, city!.lat, city!.lon],
      )
    ).map((r) => r.id);
    // The fifth order's driver is off the line: that offer is refused, the others land.
    await q(`UPDATE driver SET active = false WHERE id = $1`, [more[4]]);
    const inputs = theirs.map((orderId, k): MakeOfferInput => ({ orderId, driverId: more[k]!, kind: "LIVE", source: "BATCH", arrivalSeconds: 60, acceptSeconds: 20, actor: SYSTEM_ACTOR }));
    const outcomes = await s.batch.makeOffers(s.db.db(), inputs, 3);
    expect(outcomes.map((o) => Object.keys(o)[0])).toEqual(["made", "made", "made", "made", "refused", "made", "made", "made", "made"]);
    outcomes.forEach((outcome, k) => {
      if ("made" in outcome) expect([outcome.made.orderId, outcome.made.driverId]).toEqual([theirs[k], more[k]]);
    });
    const states = await q<{ id: number; state: string; driver_id: number | null }>(`SELECT id, state, driver_id FROM orders WHERE id = ANY($1::int[]) ORDER BY id`, [theirs]);
    expect(states).toEqual(theirs.map((id, k) => (k === 4 ? { id, state: "FREE", driver_id: null } : { id, state: "SENT_TO_DRIVER", driver_id: more[k] })));
    const live = await q<{ n: number }>(`SELECT count(*)::int AS n FROM dispatch_offer WHERE order_id = ANY($1::int[]) AND state = 'LIVE'`, [theirs]);
    expect(live[0]!.n).toBe(8);
  });
});
