// Drivers as the dispatcher sees them: the list (state, car, position age,
// balance) and the drivers an order may be sent to.
import type { Db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { escapeLike } from "../db/like";
import { afterCursor, rowsFor, toPage } from "../db/paging";

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
  region: { select: { id: true, name: true, nameEn: true } },
  car: { select: { brand: true, model: true, color: true, regNumber: true, carClass: true } },
  services: { select: { serviceId: true } },
} satisfies Prisma.DriverSelect;

export interface ListDriversInput {
  state?: "OFFLINE" | "FREE" | "BUSY";
  q?: string;
  serviceId?: number;
  cursor?: number | null;
  limit: number;
}

function driversWhere(input: Omit<ListDriversInput, "cursor" | "limit">): Prisma.DriverWhereInput {
  const q = input.q?.trim();
  return {
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
  return { ...toPage(rows, input.limit), counts: byState };
}

/** Active drivers an order may go to, free ones first; filtered by service and text. */
export async function listAssignableDrivers(db: Db, input: { serviceId?: number; q?: string; limit?: number }) {
  const rows = await db.driver.findMany({
    where: { active: true, state: { in: ["FREE", "BUSY"] }, ...driversWhere({ q: input.q, serviceId: input.serviceId }) },
    orderBy: [{ state: "asc" }, { callSign: "asc" }],
    take: input.limit ?? 30,
    select: { id: true, callSign: true, firstName: true, lastName: true, state: true, car: { select: { brand: true, model: true, regNumber: true } } },
  });
  // FREE before BUSY whatever the enum's sort order.
  return rows.sort((a, b) => Number(a.state !== "FREE") - Number(b.state !== "FREE"));
}

/** A driver's call sign by id, or null when there is no such driver. */
export async function callSignOf(db: Db, driverId: number): Promise<string | null> {
  const driver = await db.driver.findUnique({ where: { id: driverId }, select: { callSign: true } });
  return driver?.callSign ?? null;
}
