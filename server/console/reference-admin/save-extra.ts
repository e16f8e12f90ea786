// Creating or editing an extra (its code is unique within the service).
import type { Db } from "../../db";
import { ValidationError } from "../../errors";
import { forgetReference } from "../../reference/cache";
import { changedFields, conflict } from "./common";
import { serviceOf } from "./service-of";

export interface ExtraInput {
  id?: number;
  serviceId: number;
  queueId: number | null;
  code: string;
  name: string;
  nameEn: string;
  shortName: string;
  price: number;
  allowMultiple: boolean;
  isDefault: boolean;
}

export async function saveExtra(db: Db, input: ExtraInput) {
  await serviceOf(db, input.serviceId, input.queueId);
  const code = input.code.trim().toUpperCase();
  const twin = await db.extra.findFirst({ where: { serviceId: input.serviceId, code, ...(input.id ? { id: { not: input.id } } : {}) }, select: { id: true } });
  if (twin) throw conflict("extraCodeTaken", { code });
  const { id, ...fields } = input;
  const data = { ...fields, code, name: input.name.trim(), nameEn: input.nameEn.trim(), shortName: input.shortName.trim() };
  let result: { id: number; changes: string[] };
  if (id) {
    const before = await db.extra.findUnique({
      where: { id },
      select: { serviceId: true, queueId: true, code: true, name: true, nameEn: true, shortName: true, price: true, allowMultiple: true, isDefault: true },
    });
    if (!before) throw new ValidationError("NOT_FOUND", { what: "Extra", id });
    await db.extra.update({ where: { id }, data, select: { id: true } });
    result = { id, changes: changedFields(before, data) };
  } else {
    const created = await db.extra.create({ data, select: { id: true } });
    result = { id: created.id, changes: Object.keys(data) };
  }
  forgetReference();
  return result;
}
