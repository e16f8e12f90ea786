// The demo city: a deterministic, "living" city written into an empty
// database in one transaction. See plan.ts for what it contains.
import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import { buildDemoCity, type CityPlan, type DemoOptions, type DemoPlan } from "./plan";
import { liftTimeouts, sqlExecute, sqlQuery } from "../../db/sql";

export { buildDemoCity, BLACKLISTED_PHONE, DEFAULT_STREETS } from "./plan";
export type { DemoOptions, DemoPlan } from "./plan";

type Tx = Prisma.TransactionClient;

/** Any advisory lock number of our own: two processes seeding at once seed once. */
const SEED_LOCK = 724_002;

/**
 * Creates the demo cities unless a city already exists. Runs in one
 * transaction: either the whole city is there or none of it.
 */
export async function seedDemoCity(prisma: PrismaClient, options: DemoOptions = {}): Promise<{ created: boolean }> {
  if (await prisma.city.findFirst({ select: { id: true } })) return { created: false };
  const plan = buildDemoCity(options);
  return prisma.$transaction(
    async (tx) => {
      await liftTimeouts(tx);
      await sqlExecute(tx, `SELECT pg_advisory_xact_lock(${SEED_LOCK})`);
      if (await tx.city.findFirst({ select: { id: true } })) return { created: false };
      await writeDemoPlan(tx, plan);
      return { created: true };
    },
    { timeout: 15 * 60_000, maxWait: 60_000 },
  );
}

// PostgreSQL takes at most 65535 parameters per statement; stay well below.
const MAX_PARAMS = 30_000;

function chunks<T>(items: readonly T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_PARAMS / columns));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

type BulkValue = string | number | null;
type BulkRow = BulkValue[];

const BULK_ROWS = 20_000;

function bulkBatches<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += BULK_ROWS) out.push(rows.slice(i, i + BULK_ROWS));
  return out;
}

/**
 * INSERT of many rows through one JSON parameter (json_to_recordset), in the
 * order given, so that serial ids follow it. Columns: [name, json type, cast].
 * Table and column names are ours, never input.
 */
async function bulkInsert<R = unknown>(
  tx: Tx,
  table: string,
  columns: ReadonlyArray<readonly [name: string, type: string, cast?: string]>,
  rows: readonly BulkRow[],
  returning?: string,
): Promise<R[]> {
  if (rows.length === 0) return [];
  const records = rows.map((row, i) => {
    const record: Record<string, BulkValue> = { i };
    columns.forEach(([name], k) => {
      record[name] = row[k] ?? null;
    });
    return record;
  });
  const names = columns.map(([name]) => `"${name}"`).join(", ");
  const selects = columns.map(([name, , cast]) => (cast ? `x."${name}"::${cast}` : `x."${name}"`)).join(", ");
  const types = columns.map(([name, type]) => `"${name}" ${type}`).join(", ");
  const sql =
    `INSERT INTO "${table}" (${names}) SELECT ${selects} FROM json_to_recordset($1::json) AS x("i" integer, ${types}) ORDER BY x."i"` +
    (returning ? ` RETURNING ${returning}` : "");
  const json = JSON.stringify(records);
  if (returning) return sqlQuery<R>(tx, sql, [json]);
  await sqlExecute(tx, sql, [json]);
  return [];
}

/** The city's road network: junctions, then segments named after their streets. */
async function writeRoads(tx: Tx, city: CityPlan, cityId: number, streetIds: ReadonlyMap<string, number>): Promise<void> {
  const nodeIds: number[] = [];
  for (const batch of bulkBatches(city.roads.nodes)) {
    const rows = await bulkInsert<{ id: number }>(
      tx,
      "road_node",
      [["city_id", "integer"], ["lat", "double precision"], ["lon", "double precision"]],
      batch.map(([lat, lon]) => [cityId, lat, lon]),
      "id",
    );
    // RETURNING follows the insert's order (ORDER BY x.i).
    for (const r of rows) nodeIds.push(Number(r.id));
  }
  const named = new Map<number, { name: string; streetId: number }>();
  for (const street of city.streets) {
    const streetId = need(streetIds, `${cityId}:${street.searchKey}`, "street");
    for (const k of street.segments) named.set(k, { name: street.fullName, streetId });
  }
  const nodeId = (v: number): number => {
    const id = nodeIds[v];
    if (id === undefined) throw new Error(`demo seed: no road node ${v}`);
    return id;
  };
  const rows: BulkRow[] = city.roads.segments.map((seg, k) => [
    cityId,
    nodeId(seg.from),
    nodeId(seg.to),
    seg.length,
    seg.roadClass,
    seg.oneway ? 1 : 0,
    named.get(k)?.name ?? "",
    named.get(k)?.streetId ?? null,
  ]);
  for (const batch of bulkBatches(rows)) {
    await bulkInsert(
      tx,
      "road_segment",
      [
        ["city_id", "integer"],
        ["from_node_id", "integer"],
        ["to_node_id", "integer"],
        ["length", "double precision"],
        ["road_class", "text", '"RoadClass"'],
        ["oneway", "integer", "boolean"],
        ["name", "text"],
        ["street_id", "integer"],
      ],
      batch,
    );
  }
}

function need<K, V>(map: ReadonlyMap<K, V>, key: K, what: string): V {
  const value = map.get(key);
  if (value === undefined) throw new Error(`demo seed: no ${what} ${String(key)}`);
  return value;
}

/** Writes a plan into an empty database (inside the caller's transaction). */
export async function writeDemoPlan(tx: Tx, plan: DemoPlan): Promise<void> {
  // Cities, in plan order: the main city first.
  const cityRows = await tx.city.createManyAndReturn({
    data: plan.cities.map((c) => ({ name: c.name, nameEn: c.nameEn, timezone: c.timezone, currency: c.currency, lat: c.lat, lon: c.lon })),
    select: { id: true, name: true },
  });
  const cityIds = new Map(cityRows.map((r) => [r.name, r.id]));
  const cities = plan.cities.map((city) => ({ city, id: need(cityIds, city.name, "city") }));

  // Regions.
  const regionRows = await tx.region.createManyAndReturn({
    data: cities.flatMap(({ city, id }) =>
      city.regions.map((r) => ({
        cityId: id,
        name: r.name,
        nameEn: r.nameEn,
        polygon: r.polygon.map(([lat, lon]) => [lat, lon]),
        minLat: r.minLat,
        maxLat: r.maxLat,
        minLon: r.minLon,
        maxLon: r.maxLon,
      })),
    ),
    select: { id: true, cityId: true, name: true },
  });
  const regionIds = new Map(regionRows.map((r) => [`${r.cityId}:${r.name}`, r.id]));
  const regionId = (cityId: number, name: string | null) => (name === null ? null : need(regionIds, `${cityId}:${name}`, "region"));

  // Services: the main city's Economy first, so that it is service 1 in a new database.
  const serviceRows = await tx.service.createManyAndReturn({
    data: cities.flatMap(({ city, id }) =>
      city.services.map((s) => ({
        cityId: id,
        name: s.name,
        nameEn: s.nameEn,
        description: s.description,
        sortOrder: s.sortOrder,
        carClass: s.carClass,
      })),
    ),
    select: { id: true, cityId: true, name: true },
  });
  const serviceIds = new Map(serviceRows.map((r) => [`${r.cityId}:${r.name}`, r.id]));
  const services = cities.flatMap(({ city, id: cityId }) =>
    city.services.map((service) => ({ service, cityId, id: need(serviceIds, `${cityId}:${service.name}`, "service") })),
  );

  const queueRows = await tx.queue.createManyAndReturn({
    data: services.flatMap(({ service, id }) => service.queues.map((q) => ({ serviceId: id, name: q.name, isMain: q.isMain }))),
    select: { id: true, serviceId: true, name: true },
  });
  const queueIds = new Map(queueRows.map((r) => [`${r.serviceId}:${r.name}`, r.id]));
  const queueId = (serviceId: number, name: string | null) => (name === null ? null : need(queueIds, `${serviceId}:${name}`, "queue"));

  const rateRows = await tx.rate.createManyAndReturn({
    data: services.flatMap(({ service, cityId, id }) =>
      service.rates.map((r) => ({
        cityId,
        serviceId: id,
        queueId: queueId(id, r.queue),
        name: r.name,
        isBasic: r.isBasic,
        pickUp: r.pickUp,
        minFare: r.minFare,
        kmCost: r.kmCost,
        kmStart: r.kmStart,
        minuteCost: r.minuteCost,
        standCost: r.standCost,
        freeStandTime: r.freeStandTime,
        waitCost: r.waitCost,
        freeWaitTime: r.freeWaitTime,
        roundTo: r.roundTo,
        startHour: r.startHour,
        endHour: r.endHour,
      })),
    ),
    select: { id: true, serviceId: true, name: true },
  });
  const rateIds = new Map(rateRows.map((r) => [`${r.serviceId}:${r.name}`, r.id]));

  const extraRows = await tx.extra.createManyAndReturn({
    data: services.flatMap(({ service, id }) =>
      service.extras.map((e) => ({
        serviceId: id,
        queueId: queueId(id, e.queue),
        code: e.code,
        name: e.name,
        nameEn: e.nameEn,
        shortName: e.shortName,
        price: e.price,
        allowMultiple: e.allowMultiple,
        isDefault: e.isDefault,
      })),
    ),
    select: { id: true, serviceId: true, code: true },
  });
  const extraIds = new Map(extraRows.map((r) => [`${r.serviceId}:${r.code}`, r.id]));

  await tx.serviceRegion.createMany({
    data: services.flatMap(({ service, cityId, id }) =>
      service.regions.map((name) => ({ serviceId: id, regionId: need(regionIds, `${cityId}:${name}`, "region") })),
    ),
  });

  // Streets, their words and houses: the bulk of the city (a benchmark city
  // has hundreds of thousands of houses), so one JSON parameter per batch
  // rather than Prisma's row-by-row parameters.
  const streets = cities.flatMap(({ city, id }) => city.streets.map((street) => ({ street, cityId: id })));
  const streetIds = new Map<string, number>();
  for (const batch of bulkBatches(streets)) {
    const rows = await bulkInsert<{ id: number; city_id: number; search_key: string }>(
      tx,
      "street",
      [
        ["city_id", "integer"],
        ["kind", "text", '"StreetKind"'],
        ["prefix", "text"],
        ["name", "text"],
        ["full_name", "text"],
        ["search_key", "text"],
        ["lat", "double precision"],
        ["lon", "double precision"],
      ],
      batch.map(({ street: s, cityId }) => [cityId, s.kind, s.prefix, s.name, s.fullName, s.searchKey, s.lat, s.lon]),
      "id, city_id, search_key",
    );
    for (const r of rows) streetIds.set(`${Number(r.city_id)}:${r.search_key}`, Number(r.id));
  }
  const words: BulkRow[] = [];
  const houses: BulkRow[] = [];
  for (const { street, cityId } of streets) {
    const streetId = need(streetIds, `${cityId}:${street.searchKey}`, "street");
    street.words.forEach((word, position) => words.push([streetId, position, word]));
    for (const h of street.houses) houses.push([streetId, h.number, h.numberKey, h.lat, h.lon, regionId(cityId, h.region)]);
  }
  for (const batch of bulkBatches(words)) {
    await bulkInsert(tx, "street_word", [["street_id", "integer"], ["position", "integer"], ["word", "text"]], batch);
  }
  for (const { city, id } of cities) await writeRoads(tx, city, id, streetIds);
  for (const batch of bulkBatches(houses)) {
    await bulkInsert(
      tx,
      "house",
      [
        ["street_id", "integer"],
        ["number", "text"],
        ["number_key", "text"],
        ["lat", "double precision"],
        ["lon", "double precision"],
        ["region_id", "integer"],
      ],
      batch,
    );
  }

  // Drivers, cars, services and opening balances.
  const drivers = cities.flatMap(({ city, id }) => city.drivers.map((driver) => ({ driver, cityId: id })));
  const driverIds = new Map<string, number>();
  for (const batch of chunks(drivers, 20)) {
    const rows = await tx.driver.createManyAndReturn({
      data: batch.map(({ driver: d, cityId }) => ({
        cityId,
        callSign: d.callSign,
        firstName: d.firstName,
        lastName: d.lastName,
        middleName: d.middleName,
        phone: d.phone,
        permitNumber: d.permitNumber,
        state: d.state,
        balance: d.balance,
        lat: d.lat,
        lon: d.lon,
        speed: d.speed,
        bearing: d.bearing,
        positionAt: d.positionAt,
        regionId: regionId(cityId, d.region),
        createdAt: d.createdAt,
      })),
      select: { id: true, callSign: true },
    });
    for (const r of rows) driverIds.set(r.callSign, r.id);
  }
  const driverId = (callSign: string) => need(driverIds, callSign, "driver");
  // A driver on shift has an open shift (the driver app's and the console's "on shift since"; the Drivers report's hours).
  await tx.shift.createMany({
    data: drivers.flatMap(({ driver: d }) => (d.shiftStartedAt ? [{ driverId: driverId(d.callSign), startedAt: d.shiftStartedAt }] : [])),
  });
  await tx.car.createMany({
    data: drivers.map(({ driver: d }) => ({ driverId: driverId(d.callSign), ...d.car })),
  });
  await tx.driverService.createMany({
    data: drivers.flatMap(({ driver: d, cityId }) =>
      d.services.map((name) => ({ driverId: driverId(d.callSign), serviceId: need(serviceIds, `${cityId}:${name}`, "service") })),
    ),
  });
  await tx.driverLedgerEntry.createMany({
    data: drivers.flatMap(({ driver: d }) =>
      d.ledger.map((e) => ({
        driverId: driverId(d.callSign),
        txnId: e.txnId,
        amount: e.amount,
        balanceAfter: e.balanceAfter,
        reason: e.reason,
        actorType: "SYSTEM" as const,
        actorId: "seed",
        createdAt: e.createdAt,
      })),
    ),
  });

  // Customers (companies) and their ledger.
  const customers = cities.flatMap(({ city, id }) => city.customers.map((customer) => ({ customer, cityId: id })));
  const customerRows = await tx.customer.createManyAndReturn({
    data: customers.map(({ customer: c, cityId }) => ({ cityId, name: c.name, contract: c.contract, balance: c.balance, createdAt: c.createdAt })),
    select: { id: true, cityId: true, name: true },
  });
  const customerIds = new Map(customerRows.map((r) => [`${r.cityId}:${r.name}`, r.id]));
  await tx.customerLedgerEntry.createMany({
    data: customers.flatMap(({ customer: c, cityId }) =>
      c.ledger.map((e) => ({
        customerId: need(customerIds, `${cityId}:${c.name}`, "customer"),
        txnId: e.txnId,
        amount: e.amount,
        balanceAfter: e.balanceAfter,
        reason: e.reason,
        actorType: "SYSTEM" as const,
        actorId: "seed",
        createdAt: e.createdAt,
      })),
    ),
  });

  // Passengers and their bonuses (a phone already known keeps its own).
  const clientRows = await tx.client.createManyAndReturn({
    data: plan.clients.map((c) => ({ phone: c.phone, name: c.name, bonus: c.bonus, createdAt: c.createdAt })),
    select: { id: true, phone: true },
    skipDuplicates: true,
  });
  const clientIds = new Map(clientRows.map((r) => [r.phone, r.id]));
  await tx.clientBonusEntry.createMany({
    data: plan.clients
      .filter((c) => clientIds.has(c.phone))
      .flatMap((c) =>
        c.bonusLog.map((e) => ({
          clientId: need(clientIds, c.phone, "client"),
          txnId: e.txnId,
          amount: e.amount,
          bonusAfter: e.bonusAfter,
          reason: e.reason,
          createdAt: e.createdAt,
        })),
      ),
    skipDuplicates: true,
  });

  await tx.blacklistedPhone.createMany({ data: plan.blacklist, skipDuplicates: true });
  await tx.carClass.createMany({
    data: plan.carClasses.map((c) => ({
      id: c.id,
      nameEn: c.nameEn,
      nameRu: c.nameRu,
      cars: c.cars.map((car) => ({ brand: car.brand, model: car.model, year: car.year })),
    })),
    skipDuplicates: true,
  });
  await tx.carOption.createMany({ data: plan.carOptions, skipDuplicates: true });

  // Orders with their extras and histories.
  const orders = cities.flatMap(({ city, id }) => city.orders.map((order) => ({ order, cityId: id })));
  const orderIds = new Map<string, number>();
  for (const batch of chunks(orders, 40)) {
    const rows = await tx.order.createManyAndReturn({
      data: batch.map(({ order: o, cityId }) => {
        const serviceId = need(serviceIds, `${cityId}:${o.service}`, "service");
        return {
          uuid: o.uuid,
          cityId,
          serviceId,
          queueId: queueId(serviceId, o.queue),
          rateId: o.rate === null ? null : need(rateIds, `${serviceId}:${o.rate}`, "rate"),
          regionId: regionId(cityId, o.region),
          clientId: o.clientPhone === null ? null : (clientIds.get(o.clientPhone) ?? null),
          customerId: o.customer === null ? null : need(customerIds, `${cityId}:${o.customer}`, "customer"),
          driverId: o.driver === null ? null : driverId(o.driver),
          source: o.source,
          state: o.state,
          statusCode: o.statusCode,
          phone: o.phone,
          clientName: o.clientName,
          street: o.street,
          house: o.house,
          apartment: o.apartment,
          entrance: o.entrance,
          lat: o.lat,
          lon: o.lon,
          dst: o.dst,
          dstStreet: o.dstStreet,
          dstHouse: o.dstHouse,
          dstLat: o.dstLat,
          dstLon: o.dstLon,
          wayPoints: o.wayPoints.map((p) => ({ street: p.street, house: p.house, lat: p.lat, lon: p.lon })),
          comment: o.comment,
          systemMessage: o.systemMessage,
          amount: o.amount,
          distance: o.distance,
          preOrderTime: o.preOrderTime,
          startTime: o.startTime,
          arrivalAt: o.arrivalAt,
          cancelReason: o.cancelReason,
          version: o.history.length - 1,
          createdAt: o.createdAt,
          updatedAt: o.updatedAt,
        };
      }),
      select: { id: true, uuid: true },
    });
    for (const r of rows) orderIds.set(r.uuid, r.id);
  }
  const orderExtras: Prisma.OrderExtraCreateManyInput[] = [];
  const changes: Prisma.OrderStatusChangeCreateManyInput[] = [];
  for (const { order: o, cityId } of orders) {
    const orderId = need(orderIds, o.uuid, "order");
    const serviceId = need(serviceIds, `${cityId}:${o.service}`, "service");
    for (const e of o.extras) {
      orderExtras.push({ orderId, extraId: need(extraIds, `${serviceId}:${e.code}`, "extra"), count: e.count, price: e.price });
    }
    for (const h of o.history) {
      changes.push({
        orderId,
        fromState: h.fromState,
        toState: h.toState,
        toCode: h.toCode,
        actorType: "SYSTEM",
        actorId: "seed",
        reason: h.reason,
        at: h.at,
      });
    }
  }
  if (orderExtras.length > 0) await tx.orderExtra.createMany({ data: orderExtras });
  for (const batch of chunks(changes, 8)) await tx.orderStatusChange.createMany({ data: batch });
}
