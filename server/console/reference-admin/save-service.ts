// Creating or editing a service (forgets the reference cache).
import type { Db } from "../../db";
import { ValidationError } from "../../errors";
import { forgetReference } from "../../reference/cache";
import { changedFields, requireCity } from "./common";

export interface ServiceInput {
  id?: number;
  cityId: number;
  name: string;
  nameEn: string;
  description: string;
  sortOrder: number;
  carClass: number;
  active: boolean;
}

export async function saveService(db: Db, input: ServiceInput) {
  await requireCity(db, input.cityId);
  const data = {
    cityId: input.cityId,
    name: input.name.trim(),
    nameEn: input.nameEn.trim(),
    description: input.description.trim(),
    sortOrder: input.sortOrder,
    carClass: input.carClass,
    active: input.active,
  };
  let result: { id: number; changes: string[] };
  if (input.id) {
    const before = await db.service.findUnique({ where: { id: input.id }, select: { cityId: true, name: true, nameEn: true, description: true, sortOrder: true, carClass: true, active: true } });
    if (!before) throw new ValidationError("NOT_FOUND", { what: "Service", id: input.id });
    if (before.cityId !== data.cityId) throw new ValidationError("BAD_PARAMETER", { parameter: "cityId", expected: "the service's own city (a service does not move between cities)" });
    await db.service.update({ where: { id: input.id }, data, select: { id: true } });
    result = { id: input.id, changes: changedFields(before, data) };
  } else {
    const created = await db.$transaction(async (tx) => {
      const service = await tx.service.create({ data, select: { id: true } });
      // Every service has a main queue (orders without one go there).
      await tx.queue.create({ data: { serviceId: service.id, name: "Основная", isMain: true }, select: { id: true } });
      // A new service serves the whole city until told otherwise.
      const regions = await tx.region.findMany({ where: { cityId: data.cityId }, select: { id: true } });
      if (regions.length) await tx.serviceRegion.createMany({ data: regions.map((r) => ({ serviceId: service.id, regionId: r.id })), skipDuplicates: true });
      return service;
    });
    result = { id: created.id, changes: Object.keys(data) };
  }
  forgetReference();
  return result;
}
