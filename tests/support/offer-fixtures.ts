// Drivers, orders and offers the offer sets' unit files make (server/dispatch/offer.ts,
// answer-offer.ts, refusals.ts), with SQL of their own, and the statements the
// process has sent (counted on PostgreSQL's pool only).
import { afterAll, beforeAll } from "vitest";
import { SYSTEM_ACTOR } from "@/server/actor";
import { openLocalDb, openOwnPostgres } from "./local-db";
import { offerModules, type OfferModules } from "./offer-modules";
import type { MakeOfferInput } from "@/server/dispatch/offer";

export type Query = <T>(text: string, params?: unknown[]) => Promise<T[]>;

export interface OfferCity {
  id: number;
  service_id: number;
  lat: number;
  lon: number;
}

export async function firstCity(q: Query): Promise<OfferCity> {
  return (await q<OfferCity>(`SELECT c.id, s.id AS service_id, c.lat, c.lon FROM city c JOIN service s ON s.city_id = c.id ORDER BY c.id, s.id LIMIT 1`))[0]!;
}

/** `n` drivers on shift at the city's centre, call signs `prefix`1..n (phones unique by the prefix). */
export async function makeDrivers(q: Query, city: OfferCity, prefix: string, n: number, state = "FREE"): Promise<number[]> {
  const rows = await q<{ id: number }>(
    `INSERT INTO driver (city_id, call_sign, first_name, phone, state, balance, lat, lon, position_at, app_seen_at)
     SELECT $1, $4 || i, 'Тест', '+7916' || lpad((abs(hashtext($4)) % 1000)::text, 3, '0') || lpad(i::text, 4, '0'), $5::"DriverState", 0, $2, $3, now(), now()
       FROM generate_series(1, $6::int) i RETURNING id`,
    [city.id, city.lat, city.lon, prefix, state, n],
  );
  return rows.map((r) => r.id);
}

/** `n` orders at the city's centre in `state`. */
export async function makeOrders(q: Query, city: OfferCity, n: number, state = "FREE"): Promise<number[]> {
  const rows = await q<{ id: number }>(
    `INSERT INTO orders (uuid, city_id, service_id, state, status_code, phone, street, house, lat, lon, amount, updated_at, created_at)
     SELECT gen_random_uuid(), $1, $2, $5, 9, '+7917' || lpad((floor(random() * 1000000))::int::text, 6, '0'), 'ул. Полос', '1', $3, $4, 30000, now(), now()
       FROM generate_series(1, $6::int) i RETURNING id`,
    [city.id, city.service_id, city.lat, city.lon, state, n],
  );
  return rows.map((r) => r.id);
}

export function offerOf(orderId: number, driverId: number, kind: MakeOfferInput["kind"] = "LIVE"): MakeOfferInput {
  return { orderId, driverId, kind, source: "AUTO", arrivalSeconds: 120, acceptSeconds: 20, actor: SYSTEM_ACTOR };
}

/** Statements the process's pool has sent so far (taxi_db_statements_total: PostgreSQL only). */
export async function statementsSent(): Promise<number> {
  const { metrics } = await import("@/server/metrics/registry");
  return (await metrics().dbStatements.get()).values.reduce((sum, v) => sum + v.value, 0);
}

export interface OfferDb {
  /** The database the file runs on (TEST_DB). */
  kind: "postgres" | "pglite";
  modules: () => OfferModules;
  city: () => OfferCity;
  q: Query;
}

/**
 * Opens the database TEST_DB names for the file (its own, migrated and
 * seeded) before its tests and closes it after, and imports the offers'
 * modules once it is open (they read the configuration when first imported).
 */
export function useOfferDb(): OfferDb {
  const kind = process.env.TEST_DB === "postgres" ? "postgres" : "pglite";
  let close: () => Promise<void> = async () => undefined;
  let modules: OfferModules | undefined;
  let city: OfferCity | undefined;
  const q: Query = (text, params = []) => modules!.sql.sqlQuery(modules!.db.db(), text, params);
  beforeAll(async () => {
    ({ close } = kind === "postgres" ? await openOwnPostgres() : await openLocalDb());
    modules = await offerModules();
    city = await firstCity(q);
  }, 180_000);
  afterAll(async () => {
    await close();
  });
  return { kind, modules: () => modules!, city: () => city!, q };
}
