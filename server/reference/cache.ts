// Reference data that changes rarely (cities, services, queues, rates,
// extras), kept in memory so that estimates and orders don't read it on every
// request. A change through this instance calls forgetReference(); other
// instances reload within CACHE_MS.
import type { DbOrTx } from "../db";
import { rateSelect, type RateRow } from "../pricing/rates";

const CACHE_MS = 30_000;

export interface ReferenceData {
  cities: Map<number, { id: number; timezone: string; currency: string }>;
  services: Map<number, { id: number; cityId: number; active: boolean; sortOrder: number }>;
  queues: Map<number, { id: number; serviceId: number; isMain: boolean }>;
  rates: RateRow[];
  extras: Map<number, { id: number; serviceId: number; queueId: number | null; price: number; allowMultiple: boolean }>;
}

const key = Symbol.for("taxi.referenceCache");
type Holder = { [key]?: { at: number; data: Promise<ReferenceData> } };

async function load(db: DbOrTx): Promise<ReferenceData> {
  const [cities, services, queues, rates, extras] = await Promise.all([
    db.city.findMany({ select: { id: true, timezone: true, currency: true } }),
    db.service.findMany({ select: { id: true, cityId: true, active: true, sortOrder: true } }),
    db.queue.findMany({ select: { id: true, serviceId: true, isMain: true } }),
    db.rate.findMany({ select: rateSelect, orderBy: { id: "asc" } }),
    db.extra.findMany({ select: { id: true, serviceId: true, queueId: true, price: true, allowMultiple: true } }),
  ]);
  return {
    cities: new Map(cities.map((c) => [c.id, c])),
    services: new Map(services.map((s) => [s.id, s])),
    queues: new Map(queues.map((q) => [q.id, q])),
    rates,
    extras: new Map(extras.map((e) => [e.id, e])),
  };
}

export function reference(db: DbOrTx): Promise<ReferenceData> {
  const holder = globalThis as Holder;
  const cached = holder[key];
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.data;
  const data = load(db);
  holder[key] = { at: Date.now(), data };
  data.catch(() => {
    if (holder[key]?.data === data) holder[key] = undefined;
  });
  return data;
}

/** Call after changing cities, services, queues, rates or extras. */
export function forgetReference(): void {
  (globalThis as Holder)[key] = undefined;
}
