// Drivers as the dispatcher sees them: the list (state, car, position age,
// balance) and the drivers an order may be sent to.
import type { Db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { escapeLike } from "../db/like";
import { afterCursor, rowsFor, toPage } from "../db/paging";
import { config } from "../config";
import { livenessOf } from "../dispatch/liveness";

export const driverRowSelect = {
  id: true,
  callSign: true,
  firstName: true,
  lastName: true,
  phone: true,
  state: true,
  balance: true,
  active: true,
  positionAt: true,
  appSeenAt: true,
  awaySince: true,
  onBreak: { select: { since: true } },
  region: { select: { id: true, name: true, nameEn: true } },
  car: { select: { brand: true, model: true, color: true, regNumber: true, carClass: true } },
  services: { select: { serviceId: true } },
} satisfies Prisma.DriverSelect;

export interface ListDriversInput {
  state?: "OFFLINE" | "FREE" | "BUSY";
  q?: string;
  serviceId?: number;
  /** Only drivers on shift that automatic dispatch does not offer orders to (away, stale position, silent app). */
  notOffered?: boolean;
  cursor?: number | null;
  limit: number;
}

function driversWhere(input: Omit<ListDriversInput, "cursor" | "limit">): Prisma.DriverWhereInput {
  const q = input.q?.trim();
  return {
    ...(input.notOffered ? { AND: [notOfferedWhere()] } : {}),
    ...(input.state ? { state: input.state } : {}),
    ...(input.serviceId ? { services: { some: { serviceId: input.serviceId } } } : {}),
    ...(q
      ? {
          OR: [
            { callSign: { startsWith: escapeLike(q), mode: "insensitive" } },
            { lastName: { contains: escapeLike(q), mode: "insensitive" } },
            { firstName: { contains: escapeLike(q), mode: "insensitive" } },
            { phone: { contains: escapeLike(q.replace(/\D/g, "") || q) } },
            { car: { regNumber: { contains: escapeLike(q), mode: "insensitive" } } },
          ],
        }
      : {}),
  };
}

export async function listDrivers(db: Db, input: ListDriversInput) {
  const where = driversWhere(input);
  const [rows, counts] = await Promise.all([
    db.driver.findMany({
      where: afterCursor(where, input.cursor, "asc"),
      orderBy: { id: "asc" },
      take: rowsFor(input),
      select: driverRowSelect,
    }),
    db.driver.groupBy({ by: ["state"], where: { active: true }, _count: { _all: true } }),
  ]);
  const byState = { OFFLINE: 0, FREE: 0, BUSY: 0 };
  for (const c of counts) byState[c.state] = c._count._all;
  const page = toPage(rows, input.limit);
  const items = page.items.map(({ appSeenAt, onBreak, ...row }) => {
    const l = livenessOf({ awaySince: row.awaySince, positionAt: row.positionAt, appSeenAt });
    return { ...row, dispatch: row.state === "OFFLINE" ? null : { away: l.away, onBreak: onBreak !== null, stalePosition: l.stalePosition, silentApp: l.silentApp } };
  });
  return { ...page, items, counts: byState, notOffered: await db.driver.count({ where: { active: true, ...notOfferedWhere() } }) };
}

/** Drivers on shift automatic dispatch passes over (server/dispatch/liveness.ts). */
function notOfferedWhere(): Prisma.DriverWhereInput {
  const cfg = config();
  const before = (seconds: number) => new Date(Date.now() - seconds * 1000);
  const or: Prisma.DriverWhereInput[] = [{ awaySince: { not: null } }, { onBreak: { isNot: null } }];
  if (cfg.DISPATCH_POSITION_MAX_AGE_SECONDS > 0) or.push({ positionAt: null }, { positionAt: { lt: before(cfg.DISPATCH_POSITION_MAX_AGE_SECONDS) } });
  if (cfg.DISPATCH_APP_SILENT_SECONDS > 0) or.push({ appSeenAt: null }, { appSeenAt: { lt: before(cfg.DISPATCH_APP_SILENT_SECONDS) } });
  return { state: { in: ["FREE", "BUSY"] }, OR: or };
}

/** Active drivers an order may go to, free ones first; filtered by service and text. */
export async function listAssignableDrivers(db: Db, input: { serviceId?: number; q?: string; limit?: number }) {
  const rows = await db.driver.findMany({
    where: { active: true, state: { in: ["FREE", "BUSY"] }, ...driversWhere({ q: input.q, serviceId: input.serviceId }) },
    orderBy: [{ state: "asc" }, { callSign: "asc" }],
    take: input.limit ?? 30,
    select: {
      id: true,
      callSign: true,
      firstName: true,
      lastName: true,
      state: true,
      positionAt: true,
      appSeenAt: true,
      awaySince: true,
      car: { select: { brand: true, model: true, regNumber: true } },
      // A live offer keeps a FREE driver from another order (server/console/give-to-driver.ts: "busy").
      dispatchOffers: { where: { state: "LIVE" }, select: { id: true }, take: 1 },
    },
  });
  // FREE before BUSY whatever the enum's sort order.
  return rows
    .sort((a, b) => Number(a.state !== "FREE") - Number(b.state !== "FREE"))
    .map(({ positionAt, appSeenAt, awaySince, dispatchOffers, ...row }) => {
      // The picker warns before giving an order to a driver automatic dispatch passes over (the same rules, liveness.ts).
      const l = livenessOf({ awaySince, positionAt, appSeenAt });
      return { ...row, offered: dispatchOffers.length > 0, dispatch: { away: l.away, stalePosition: l.stalePosition, silentApp: l.silentApp } };
    });
}

/** A driver's call sign by id, or null when there is no such driver. */
export async function callSignOf(db: Db, driverId: number): Promise<string | null> {
  const driver = await db.driver.findUnique({ where: { id: driverId }, select: { callSign: true } });
  return driver?.callSign ?? null;
}
