// Extras of a service, for the administrators' reference pages.
import type { Db } from "../../db";

export async function listExtrasAdmin(db: Db, input: { serviceId?: number }) {
  return db.extra.findMany({
    where: input.serviceId ? { serviceId: input.serviceId } : {},
    orderBy: [{ serviceId: "asc" }, { id: "asc" }],
    select: {
      id: true,
      serviceId: true,
      queueId: true,
      code: true,
      name: true,
      nameEn: true,
      shortName: true,
      price: true,
      allowMultiple: true,
      isDefault: true,
      service: { select: { name: true, nameEn: true } },
      queue: { select: { name: true } },
    },
  });
}
