// A round's offers several to one transaction, a savepoint each
// (server/dispatch/offer-batch.ts), on the database TEST_DB names: an offer
// whose statement fails in the database mid-batch (a trigger refuses its
// insert here, as a unique index or a deadlock between two instances would)
// and an offer refused by its checks (its order offered earlier in the same
// batch) roll back alone, leaving no trace; the others land, each order moved
// through the state machine with its history and its driver BUSY.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLocalDb, openOwnPostgres } from "../support/local-db";
import { offerModules, type OfferModules } from "../support/offer-modules";
import { SYSTEM_ACTOR } from "@/server/actor";
import type { MakeOfferInput } from "@/server/dispatch/offer";

const TEST_DB = process.env.TEST_DB === "postgres" ? "postgres" : "pglite";

let close: () => Promise<void> = async () => undefined;
let drivers: number[] = [];
let orders: number[] = [];

let s: OfferModules;

beforeAll(async () => {
  ({ close } = TEST_DB === "postgres" ? await openOwnPostgres() : await openLocalDb());
  s = await offerModules();
  const q = <T,>(text: string, params: unknown[] = []) => s.sql.sqlQuery<T>(s.db.db(), text, params);
  const [city] = await q<{ id: number; service_id: number; lat: number; lon: number }>(
    `SELECT c.id, s.id AS service_id, c.lat, c.lon FROM city c JOIN service s ON s.city_id = c.id ORDER BY c.id, s.id LIMIT 1`,
  );
  drivers = (
    await q<{ id: number }>(
      `INSERT INTO driver (city_id, call_sign, first_name, phone, state, balance, lat, lon, position_at, app_seen_at)
       SELECT $1, 'SP' || i, 'Тест', '+7916555000' || i, 'FREE', 0, $2, $3, now(), now() FROM generate_series(1, 5) i RETURNING id`,
      [city!.id, city!.lat, city!.lon],
    )
  ).map((r) => r.id);
  orders = (
    await q<{ id: number }>(
      `INSERT INTO orders (uuid, city_id, service_id, state, status_code, phone, street, house, lat, lon, amount, updated_at, created_at)
       SELECT gen_random_uuid(), $1, $2, 'FREE', 9, '+7917555000' || i, 'ул. Сейвпойнтов', '1', $3, $4, 30000, now(), now()
         FROM generate_series(1, 4) i RETURNING id`,
      [city!.id, city!.service_id, city!.lat, city!.lon],
    )
  ).map((r) => r.id);
  orders.sort((a, b) => a - b);
  drivers.sort((a, b) => a - b);
  // The database refuses the second order's offer after its locks and checks, mid-batch.
  await q(`CREATE FUNCTION refuse_test_offer() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN IF NEW.order_id = ${orders[1]} THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`);
  await q(`CREATE TRIGGER refuse_test_offer BEFORE INSERT ON dispatch_offer FOR EACH ROW EXECUTE FUNCTION refuse_test_offer()`);
}, 180_000);

afterAll(async () => {
  await close();
});

describe(`a batch of offers, a savepoint each (${TEST_DB})`, () => {
  it("a failed offer rolls back alone; the others land through the state machine", async () => {
    const offer = (orderId: number, driverId: number): MakeOfferInput => ({ orderId, driverId, kind: "LIVE", source: "BATCH", arrivalSeconds: 60, acceptSeconds: 20, actor: SYSTEM_ACTOR });
    const [o1, o2, o3, o4] = orders as [number, number, number, number];
    const [d1, d2, d3, d4, d5] = drivers as [number, number, number, number, number];
    const outcomes = await s.batch.makeOffers(s.db.db(), [offer(o1, d1), offer(o2, d2), offer(o3, d3), offer(o4, d4), offer(o4, d5)]);
    expect(outcomes.map((o) => Object.keys(o)[0])).toEqual(["made", "failed", "made", "made", "refused"]);

    const q = <T,>(text: string, params: unknown[] = []) => s.sql.sqlQuery<T>(s.db.db(), text, params);
    const offers = await q<{ order_id: number; driver_id: number; state: string }>(`SELECT order_id, driver_id, state FROM dispatch_offer WHERE order_id = ANY($1::int[]) ORDER BY order_id`, [orders]);
    expect(offers).toEqual([
      { order_id: o1, driver_id: d1, state: "LIVE" },
      { order_id: o3, driver_id: d3, state: "LIVE" },
      { order_id: o4, driver_id: d4, state: "LIVE" },
    ]);
    const states = await q<{ id: number; state: string; driver_id: number | null }>(`SELECT id, state, driver_id FROM orders WHERE id = ANY($1::int[]) ORDER BY id`, [orders]);
    expect(states).toEqual([
      { id: o1, state: "SENT_TO_DRIVER", driver_id: d1 },
      { id: o2, state: "FREE", driver_id: null },
      { id: o3, state: "SENT_TO_DRIVER", driver_id: d3 },
      { id: o4, state: "SENT_TO_DRIVER", driver_id: d4 },
    ]);
    // Each move in the history, by the system; none for the failed offer's order.
    const history = await q<{ order_id: number; from_state: string; to_state: string; actor_type: string }>(
      `SELECT order_id, from_state, to_state, actor_type::text AS actor_type FROM order_status_change WHERE order_id = ANY($1::int[]) ORDER BY order_id, id`,
      [orders],
    );
    expect(history).toEqual([o1, o3, o4].map((id) => ({ order_id: id, from_state: "FREE", to_state: "SENT_TO_DRIVER", actor_type: "SYSTEM" })));
    const driverStates = await q<{ id: number; state: string }>(`SELECT id, state::text AS state FROM driver WHERE id = ANY($1::int[]) ORDER BY id`, [drivers]);
    expect(driverStates.map((d) => d.state)).toEqual(["BUSY", "FREE", "BUSY", "BUSY", "FREE"]);
    // The failed offer's attempt was not counted either (its dispatch row rolled back with it, or never counted).
    const attempts = await q<{ order_id: number; attempts: number }>(`SELECT order_id, attempts FROM dispatch_order WHERE order_id = ANY($1::int[]) ORDER BY order_id`, [orders]);
    expect(attempts.find((a) => a.order_id === o2)?.attempts ?? 0).toBe(0);
  });

  it("lanes share no order and no driver, interleaved in the inputs' order; one lane when one repeats", () => {
    const offer = (orderId: number, driverId: number): MakeOfferInput => ({ orderId, driverId, kind: "LIVE", source: "BATCH", arrivalSeconds: 60, acceptSeconds: 20, actor: SYSTEM_ACTOR });
    const seven = Array.from({ length: 7 }, (_, k) => offer(100 + k, 200 + k));
    expect(s.batch.splitLanes(seven, 3)).toEqual([[0, 3, 6], [1, 4], [2, 5]]);
    expect(s.batch.splitLanes(seven.slice(0, 2), 3)).toEqual([[0], [1]]);
    expect(s.batch.splitLanes(seven, 1)).toEqual([[0, 1, 2, 3, 4, 5, 6]]);
    // An order twice, or a driver twice: judged in order in one lane, never raced.
    expect(s.batch.splitLanes([...seven, offer(103, 299)], 3)).toHaveLength(1);
    expect(s.batch.splitLanes([...seven, offer(199, 203)], 3)).toHaveLength(1);
    expect(s.batch.offerLanes(true, 10, 3)).toBe(3);
    expect(s.batch.offerLanes(true, 5, 3)).toBe(1);
    expect(s.batch.offerLanes(false, 10, 3)).toBe(1);
  });
});
