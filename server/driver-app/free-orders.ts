// The free orders a driver may take by themselves (the pull model).
import type { Db } from "../db";
import { OrderError } from "../errors";
import { haversineMetres } from "../geo/distance";
import { loadSettings } from "../dispatch/settings";
import { FREE_STATES, type OrderState } from "../orders/states";
import type { DriverIdentity } from "./keys";
import { orderSelect, view } from "./order-view";

export interface OffersInput {
  radiusKm: number;
  limit: number;
  advance: boolean;
}

/**
 * Free orders of the driver's services near the driver, nearest first (only
 * while FREE): those the driver may take by themselves — the radio's, and
 * those of services whose distribution is not automatic (settings.ts).
 */
export async function listFreeOrders(db: Db, me: DriverIdentity, input: OffersInput) {
  const driver = await db.driver.findUniqueOrThrow({
    where: { id: me.id },
    select: { state: true, lat: true, lon: true, services: { select: { serviceId: true } } },
  });
  if (driver.state === "OFFLINE") throw new OrderError("CONFLICT", { reason: "not on shift: start a shift first" });
  if (driver.lat === null || driver.lon === null) throw new OrderError("CONFLICT", { reason: "no position yet: report a position first" });
  if (driver.state !== "FREE") return { state: driver.state, offers: [] };
  const here = { lat: driver.lat, lon: driver.lon };
  const dLat = input.radiusKm / 111;
  const dLon = input.radiusKm / (111 * Math.max(0.1, Math.cos((here.lat * Math.PI) / 180)));
  const states: OrderState[] = input.advance ? [...FREE_STATES, "PREORDER_FREE"] : FREE_STATES;
  const settings = await loadSettings(db);
  const rows = await db.order.findMany({
    where: {
      cityId: me.cityId,
      state: { in: states },
      serviceId: { in: driver.services.map((s) => s.serviceId) },
      lat: { gte: here.lat - dLat, lte: here.lat + dLat },
      lon: { gte: here.lon - dLon, lte: here.lon + dLon },
    },
    select: { ...orderSelect, regionId: true, exchangeLink: { select: { role: true, phase: true } } },
    orderBy: { createdAt: "asc" },
    take: 500,
  });
  // An offer bought from the exchange is not dispatched automatically (only a
  // take on the exchange gives it to a driver): drivers take it themselves, whatever the distribution.
  const exchangeOffer = (row: (typeof rows)[number]) => row.exchangeLink?.role === "BOUGHT" && row.exchangeLink.phase === "OFFERED";
  const pullable = rows.filter((row) =>
    exchangeOffer(row) || (row.state === "PREORDER_FREE" ? settings.pullable("FREE", row.serviceId, row.regionId) : settings.pullable(row.state, row.serviceId, row.regionId)),
  );
  const offers = pullable
    .map(({ exchangeLink: _link, ...row }) => row)
    .map((row) => ({ row, metres: haversineMetres(here, { lat: row.lat ?? 0, lon: row.lon ?? 0 }) }))
    .filter((o) => o.metres <= input.radiusKm * 1000)
    .sort((a, b) => a.metres - b.metres || a.row.id - b.row.id)
    .slice(0, input.limit)
    .map((o) => ({ ...view(o.row, me.id), distance_km: Math.round(o.metres) / 1000 }));
  return { state: driver.state, offers };
}

