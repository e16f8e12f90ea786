// Drivers with their cars, a page at a time.
import type { Db } from "../../db";
import type { Prisma } from "../../generated/prisma/client";
import { escapeLike } from "../../db/like";
import { afterCursor, rowsFor, toPage } from "../../db/paging";

export async function listDriversAdmin(db: Db, input: { q?: string; active?: boolean; cursor?: number | null; limit: number }) {
  const q = input.q?.trim();
  const where: Prisma.DriverWhereInput = {
    ...(input.active !== undefined ? { active: input.active } : {}),
    ...(q
      ? {
          OR: [
            { callSign: { startsWith: escapeLike(q), mode: "insensitive" } },
            { lastName: { contains: escapeLike(q), mode: "insensitive" } },
            { firstName: { contains: escapeLike(q), mode: "insensitive" } },
            ...(q.replace(/\D/g, "").length >= 3 ? [{ phone: { contains: escapeLike(q.replace(/\D/g, "")) } }] : []),
            { car: { regNumber: { contains: escapeLike(q), mode: "insensitive" } } },
          ],
        }
      : {}),
  };
  const rows = await db.driver.findMany({
    where: afterCursor(where, input.cursor, "asc"),
    orderBy: { id: "asc" },
    take: rowsFor(input),
    select: {
      id: true,
      cityId: true,
      callSign: true,
      firstName: true,
      lastName: true,
      middleName: true,
      phone: true,
      permitNumber: true,
      state: true,
      active: true,
      city: { select: { name: true, nameEn: true } },
      car: { select: { brand: true, model: true, color: true, regNumber: true, year: true, carClass: true } },
      services: { select: { serviceId: true } },
    },
  });
  return toPage(rows, input.limit);
}
