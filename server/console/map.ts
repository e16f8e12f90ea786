// The dispatcher's live map: a city's regions with the free drivers and the
// waiting orders in each, every active driver with a known position, a
// plain base map drawn from our own street data (the map must work with no
// tile server: the streets along their roads), one driver's card and one
// order's route.
import type { Db } from "../db";
import { config } from "../config";
import { ValidationError } from "../errors";
import { parsePolygon, type LatLon } from "../geo/polygon";
import { DRIVER_APPROACHING_STATES, DRIVER_HOLDING_STATES, NOT_DONE_STATES, WAITING_STATES } from "../orders/states";
import { routeThrough } from "../routing/routes";
import { cityRoads } from "../routing/graph-cache";
import { streetPolylines } from "../routing/street-lines";
import { CLASS_INDEX } from "../routing/speeds";

/** Orders waiting for a car: the board's "free" group. */
const WAITING = [...WAITING_STATES];

export interface MapBounds {
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}

async function cityOrFirst(db: Db, cityId: number | undefined) {
  const cities = await db.city.findMany({ orderBy: { id: "asc" }, select: { id: true, name: true, nameEn: true, lat: true, lon: true } });
  const city = cityId === undefined ? cities[0] : cities.find((c) => c.id === cityId);
  if (!city) throw new ValidationError("NOT_FOUND", { what: "City", id: cityId ?? null });
  return { city, cities };
}

/** Free drivers and waiting orders per region of a city (the live part of the regions). */
export async function regionCounts(db: Db, cityId: number) {
  const [drivers, orders, unplaced] = await Promise.all([
    db.driver.groupBy({ by: ["regionId", "state"], where: { cityId, active: true }, _count: { _all: true } }),
    db.order.groupBy({ by: ["regionId"], where: { cityId, state: { in: WAITING } }, _count: { _all: true } }),
    db.driver.count({ where: { cityId, active: true, state: { not: "OFFLINE" }, OR: [{ lat: null }, { lon: null }] } }),
  ]);
  const byRegion = new Map<number, { free: number; busy: number; waiting: number }>();
  const slot = (id: number) => {
    let s = byRegion.get(id);
    if (!s) byRegion.set(id, (s = { free: 0, busy: 0, waiting: 0 }));
    return s;
  };
  const totals = { FREE: 0, BUSY: 0, OFFLINE: 0, waiting: 0, unplaced };
  for (const d of drivers) {
    totals[d.state] += d._count._all;
    if (d.regionId === null) continue;
    if (d.state === "FREE") slot(d.regionId).free += d._count._all;
    if (d.state === "BUSY") slot(d.regionId).busy += d._count._all;
  }
  for (const o of orders) {
    totals.waiting += o._count._all;
    if (o.regionId !== null) slot(o.regionId).waiting += o._count._all;
  }
  return {
    cityId,
    regions: [...byRegion.entries()].map(([regionId, c]) => ({ regionId, ...c })),
    totals,
  };
}

export const mapDriverSelect = {
  id: true,
  callSign: true,
  firstName: true,
  lastName: true,
  state: true,
  lat: true,
  lon: true,
  bearing: true,
  speed: true,
  regionId: true,
  positionAt: true,
} as const;

/** The city's regions (with counts), drivers with a position, waiting orders with a point, the bounds. */
export async function mapOverview(db: Db, input: { cityId?: number }) {
  const { city, cities } = await cityOrFirst(db, input.cityId);
  const [regions, drivers, waiting, counts] = await Promise.all([
    db.region.findMany({
      where: { cityId: city.id },
      orderBy: { name: "asc" },
      select: { id: true, name: true, nameEn: true, polygon: true, minLat: true, maxLat: true, minLon: true, maxLon: true },
    }),
    db.driver.findMany({
      where: { cityId: city.id, active: true, lat: { not: null }, lon: { not: null } },
      orderBy: { callSign: "asc" },
      select: mapDriverSelect,
    }),
    db.order.findMany({
      where: { cityId: city.id, state: { in: WAITING }, lat: { not: null }, lon: { not: null } },
      orderBy: { id: "desc" },
      take: 500,
      select: { id: true, state: true, lat: true, lon: true, street: true, house: true, regionId: true, createdAt: true },
    }),
    regionCounts(db, city.id),
  ]);
  const bounds: MapBounds | null = regions.length
    ? {
        minLat: Math.min(...regions.map((r) => r.minLat)),
        maxLat: Math.max(...regions.map((r) => r.maxLat)),
        minLon: Math.min(...regions.map((r) => r.minLon)),
        maxLon: Math.max(...regions.map((r) => r.maxLon)),
      }
    : null;
  return {
    city,
    cities,
    tileUrl: config().MAP_TILE_URL.trim(),
    bounds,
    regions: regions.map((r) => ({ id: r.id, name: r.name, nameEn: r.nameEn, polygon: parsePolygon(r.polygon) ?? [] })),
    drivers,
    waiting,
    counts,
  };
}

/**
 * A street as a line for the plain base map: the segment through its houses
 * along their main direction (houses stand on both sides of a street).
 */
function streetLine(points: ReadonlyArray<{ lat: number; lon: number }>): [LatLon, LatLon] | null {
  if (points.length < 2) return null;
  const n = points.length;
  const mLat = points.reduce((s, p) => s + p.lat, 0) / n;
  const mLon = points.reduce((s, p) => s + p.lon, 0) / n;
  const k = Math.cos((mLat * Math.PI) / 180);
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (const p of points) {
    const x = (p.lon - mLon) * k;
    const y = p.lat - mLat;
    sxx += x * x;
    syy += y * y;
    sxy += x * y;
  }
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const dx = Math.cos(angle);
  const dy = Math.sin(angle);
  let min = Infinity;
  let max = -Infinity;
  for (const p of points) {
    const t = (p.lon - mLon) * k * dx + (p.lat - mLat) * dy;
    if (t < min) min = t;
    if (t > max) max = t;
  }
  if (!Number.isFinite(min) || max - min < 1e-6) return null;
  const at = (t: number): LatLon => [mLat + t * dy, mLon + (t * dx) / k];
  return [at(min), at(max)];
}

const basemapKey = Symbol.for("taxi.consoleBasemap");
type BasemapHolder = { [basemapKey]?: Map<number, { at: number; data: Promise<Basemap> }> };
const BASEMAP_MS = 5 * 60_000;

export interface Basemap {
  cityId: number;
  /** Lines of streets: along their road segments, or through their houses (a street may have several lines). */
  streets: Array<{ name: string; major: boolean; line: LatLon[] }>;
  places: Array<{ name: string; lat: number; lon: number }>;
}

async function loadBasemap(db: Db, cityId: number): Promise<Basemap> {
  const streets = await db.street.findMany({
    where: { cityId },
    select: { id: true, fullName: true, prefix: true, kind: true, lat: true, lon: true, houses: { select: { lat: true, lon: true } } },
    orderBy: { id: "asc" },
  });
  const out: Basemap = { cityId, streets: [], places: [] };
  // Along the roads where the street has them; else the line through its houses.
  const router = (await cityRoads(db, cityId)).router;
  const lines = router ? streetPolylines(router.graph) : new Map<number, LatLon[][]>();
  const majorRoads = new Set<number>();
  if (router) {
    const g = router.graph;
    for (let k = 0; k < g.segmentCount; k++) if (g.segmentClass[k]! <= CLASS_INDEX.SECONDARY && g.segmentStreet[k]) majorRoads.add(g.segmentStreet[k]!);
  }
  for (const s of streets) {
    if (s.kind === "PUBLIC_PLACE") {
      out.places.push({ name: s.fullName, lat: s.lat, lon: s.lon });
      continue;
    }
    const major = s.prefix === "пр-т" || s.prefix === "ш." || majorRoads.has(s.id);
    const roads = lines.get(s.id);
    if (roads?.length) {
      for (const line of roads) out.streets.push({ name: s.fullName, major, line });
      continue;
    }
    const line = streetLine(s.houses);
    if (line) out.streets.push({ name: s.fullName, major, line });
  }
  return out;
}

/** The plain base map of a city from its streets (cached: streets change rarely). */
export function cityBasemap(db: Db, cityId: number): Promise<Basemap> {
  const holder = globalThis as BasemapHolder;
  holder[basemapKey] ??= new Map();
  const cache = holder[basemapKey];
  const hit = cache.get(cityId);
  if (hit && Date.now() - hit.at < BASEMAP_MS) return hit.data;
  const data = loadBasemap(db, cityId);
  cache.set(cityId, { at: Date.now(), data });
  data.catch(() => cache.delete(cityId));
  return data;
}

/** Call after adding streets: the base maps are drawn again. */
export function forgetBasemaps(): void {
  (globalThis as BasemapHolder)[basemapKey] = undefined;
}

interface WayPoint {
  lat: number;
  lon: number;
  street: string;
  house: string;
}

function wayPointsOf(value: unknown): WayPoint[] {
  if (!Array.isArray(value)) return [];
  const out: WayPoint[] = [];
  for (const item of value as unknown[]) {
    if (!item || typeof item !== "object") continue;
    const p = item as Record<string, unknown>;
    if (typeof p.lat !== "number" || typeof p.lon !== "number" || !Number.isFinite(p.lat) || !Number.isFinite(p.lon)) continue;
    out.push({ lat: p.lat, lon: p.lon, street: typeof p.street === "string" ? p.street : "", house: typeof p.house === "string" ? p.house : "" });
  }
  return out;
}

/** An order's route: its way points (pickup first), else pickup and destination. */
export async function orderRoute(db: Db, orderId: number) {
  const order = await db.order.findUnique({
    where: { id: orderId },
    select: {
      id: true,
      cityId: true,
      state: true,
      street: true,
      house: true,
      lat: true,
      lon: true,
      dst: true,
      dstStreet: true,
      dstHouse: true,
      dstLat: true,
      dstLon: true,
      wayPoints: true,
      amount: true,
      distance: true,
      arrivalAt: true,
      driver: { select: { id: true, callSign: true, lat: true, lon: true, state: true } },
    },
  });
  if (!order) throw new ValidationError("NOT_FOUND", { what: "Order", id: orderId });
  let points = wayPointsOf(order.wayPoints);
  if (points.length === 0) {
    if (order.lat !== null && order.lon !== null) points.push({ lat: order.lat, lon: order.lon, street: order.street, house: order.house });
    if (order.dstLat !== null && order.dstLon !== null) points.push({ lat: order.dstLat, lon: order.dstLon, street: order.dstStreet || order.dst, house: order.dstHouse });
  }
  if (points.length > 50) points = points.slice(0, 50);
  // Along the roads when the points are on them: the trip, and the car's way to the pickup with its time.
  const trip = points.length >= 2 ? await routeThrough(db, order.cityId, points) : undefined;
  const driver = order.driver;
  const approach =
    driver && driver.lat !== null && driver.lon !== null && points[0] && (DRIVER_APPROACHING_STATES as readonly string[]).includes(order.state)
      ? await routeThrough(db, order.cityId, [{ lat: driver.lat, lon: driver.lon }, points[0]])
      : undefined;
  return {
    id: order.id,
    cityId: order.cityId,
    state: order.state,
    amount: order.amount,
    distance: order.distance,
    points,
    /** The trip along the roads, or null (then the points are joined by straight lines). */
    path: trip ? { points: trip.points, metres: trip.metres, seconds: trip.seconds } : null,
    /** The car's way to the pickup along the roads, with the time it takes now. */
    approach: approach ? { points: approach.points, metres: approach.metres, seconds: approach.seconds } : null,
    arrivalAt: order.arrivalAt,
    driver,
  };
}

/** The card of a driver clicked on the map: car, call sign, phone, balance, the current order. */
export async function mapDriverCard(db: Db, driverId: number) {
  const driver = await db.driver.findUnique({
    where: { id: driverId },
    select: {
      ...mapDriverSelect,
      middleName: true,
      phone: true,
      balance: true,
      active: true,
      region: { select: { id: true, name: true, nameEn: true } },
      car: { select: { brand: true, model: true, color: true, regNumber: true, year: true, carClass: true } },
      services: { select: { service: { select: { id: true, name: true, nameEn: true } } } },
      shifts: { where: { endedAt: null }, orderBy: { id: "desc" }, take: 1, select: { startedAt: true } },
    },
  });
  if (!driver) throw new ValidationError("NOT_FOUND", { what: "Driver", id: driverId });
  const orders = await db.order.findMany({
    where: { driverId, state: { in: NOT_DONE_STATES } },
    orderBy: { id: "desc" },
    take: 5,
    select: { id: true, state: true, street: true, house: true, dst: true, dstStreet: true, dstHouse: true, amount: true, preOrderTime: true, createdAt: true },
  });
  const current = orders.find((o) => (DRIVER_HOLDING_STATES as readonly string[]).includes(o.state)) ?? null;
  const { shifts, services, ...rest } = driver;
  return {
    ...rest,
    services: services.map((s) => s.service),
    shiftStartedAt: shifts[0]?.startedAt ?? null,
    currentOrder: current,
    otherOrders: orders.filter((o) => o.id !== current?.id),
  };
}
