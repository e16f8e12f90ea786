// The fleet's city, provisioned by set-based SQL (a few statements, about 2 s
// for 10,000 drivers): the demo city, automatic dispatch batched every round
// for each of its services, N drivers on shift at its houses with a car,
// every service, a fresh position and a driver app key each, and the free
// orders. Shared by the fleet benchmark (fleet.ts) and the round's profile
// (fleet-round.ts).
import { seedDemoCity } from "../../server/seed/demo";
import type { PrismaClient } from "../../server/generated/prisma/client";
import type { FleetDriver } from "./fleet-load";

export interface ProvisionedFleet {
  drivers: FleetDriver[];
  addresses: Array<{ street: string; house: string }>;
  serviceId: number;
  cityId: number;
  /** The free orders provisioned, oldest first (their passengers may give up: fleet.ts --patience). */
  freeOrderUuids: string[];
}

export async function provisionFleet(prisma: PrismaClient, o: { drivers: number; freeOrders: number; token: string }): Promise<ProvisionedFleet> {
  await seedDemoCity(prisma);
  const city = await prisma.city.findFirstOrThrow({ orderBy: { id: "asc" }, select: { id: true } });
  const services = await prisma.service.findMany({ where: { cityId: city.id }, select: { id: true } });
  // Automatic dispatch for every service of the city: batched every round (the heaviest case), offers that wait, never given up.
  await prisma.$executeRawUnsafe(`DELETE FROM dispatch_setting`);
  await prisma.$executeRawUnsafe(
    `INSERT INTO dispatch_setting (service_id, region_id, mode, strategy, accept_seconds, attempts, radius_km, free_long_minutes, batch_seconds, fairness_weight, chain_minutes, min_balance, updated_at)
     SELECT id, NULL, 'AUTO', 'BATCHED', 20, 100, 3, 600, 1, 0, 0, -100000000, now() FROM service WHERE city_id = $1`,
    city.id,
  );
  // The fleet at the city's houses (so on its roads), each with a key of its own (its SHA-256 is what the server stores).
  await prisma.$executeRawUnsafe(
    `WITH h AS (SELECT h.lat, h.lon, row_number() OVER (ORDER BY h.id) - 1 AS k, count(*) OVER () AS n
                  FROM house h JOIN street s ON s.id = h.street_id WHERE s.city_id = $1)
     INSERT INTO driver (city_id, call_sign, first_name, phone, state, balance, lat, lon, position_at, region_id, app_key_hash, app_seen_at)
     SELECT $1, 'F' || lpad(i::text, 5, '0'), 'Водитель ' || i, '+7903' || lpad(i::text, 7, '0'), 'FREE', 10000000,
            h.lat + (random() - 0.5) * 0.001, h.lon + (random() - 0.5) * 0.001, now(), NULL,
            encode(sha256(convert_to('da_fleet_' || $3 || '_' || i, 'UTF8')), 'hex'), now()
       FROM generate_series(0, $2 - 1) i JOIN h ON h.k = (i * 7919) % h.n`,
    city.id,
    o.drivers,
    o.token,
  );
  await prisma.$executeRawUnsafe(
    `INSERT INTO car (driver_id, brand, model, color, reg_number, car_class) SELECT id, 'Lada', 'Vesta', 'белый', 'Ф' || id || 'ЛТ', 1 FROM driver WHERE call_sign LIKE 'F%'`,
  );
  await prisma.$executeRawUnsafe(`INSERT INTO driver_service (driver_id, service_id) SELECT d.id, s.id FROM driver d, service s WHERE d.call_sign LIKE 'F%' AND s.city_id = $1`, city.id);
  await prisma.$executeRawUnsafe(`INSERT INTO shift (driver_id) SELECT id FROM driver WHERE call_sign LIKE 'F%'`);
  // The free orders waiting at houses of the city.
  const free = await prisma.$queryRawUnsafe<Array<{ id: number; uuid: string }>>(
    `WITH h AS (SELECT h.lat, h.lon, row_number() OVER (ORDER BY h.id) - 1 AS k, count(*) OVER () AS n
                  FROM house h JOIN street s ON s.id = h.street_id WHERE s.city_id = $1)
     INSERT INTO orders (uuid, city_id, service_id, state, status_code, phone, street, house, lat, lon, amount, updated_at, created_at)
     SELECT gen_random_uuid(), $1, $2, 'FREE', 9, '+7917' || lpad(i::text, 7, '0'), 'ул. Бенчмарка', '1', h.lat, h.lon, 30000, now(), now()
       FROM generate_series(0, $3 - 1) i JOIN h ON h.k = (i * 104729 + 17) % h.n
     RETURNING id, uuid::text AS uuid`,
    city.id,
    services[0]!.id,
    o.freeOrders,
  );
  await prisma.$executeRawUnsafe(`ANALYZE`);
  const rows = await prisma.$queryRawUnsafe<Array<{ id: number; i: number; lat: number; lon: number }>>(
    `SELECT id, substr(call_sign, 2)::int AS i, lat, lon FROM driver WHERE call_sign LIKE 'F%' ORDER BY id`,
  );
  const addresses = await prisma.$queryRawUnsafe<Array<{ street: string; house: string }>>(
    `SELECT s.full_name AS street, h.number AS house FROM house h JOIN street s ON s.id = h.street_id WHERE s.city_id = $1 ORDER BY h.id LIMIT 500`,
    city.id,
  );
  return {
    drivers: rows.map((r): FleetDriver => ({ id: r.id, key: `da_fleet_${o.token}_${r.i}`, lat: r.lat, lon: r.lon })),
    addresses,
    serviceId: services[0]!.id,
    cityId: city.id,
    freeOrderUuids: free.sort((a, b) => a.id - b.id).map((f) => f.uuid),
  };
}
