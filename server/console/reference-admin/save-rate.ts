// Creating or editing a rate (forgets the reference cache).
import type { Db } from "../../db";
import { ValidationError } from "../../errors";
import { forgetReference } from "../../reference/cache";
import { changedFields } from "./common";
import { rateAdminSelect } from "./list-rates";
import { serviceOf } from "./service-of";
import type { RateFields } from "../../pricing/rate-shape";

export type RateInput = {
  id?: number;
  serviceId: number;
  queueId: number | null;
  name: string;
  isBasic: boolean;
  kind?: "FIXED" | "METERED";
} & RateFields;

export async function saveRate(db: Db, input: RateInput) {
  const service = await serviceOf(db, input.serviceId, input.queueId);
  if ((input.startHour === null) !== (input.endHour === null)) {
    throw new ValidationError("BAD_PARAMETER", { parameter: "endHour", expected: "both hours, or neither (all day)", reasonKey: "hoursPair" });
  }
  const { id, ...fields } = input;
  const data = { ...fields, name: input.name.trim(), cityId: service.cityId };
  let result: { id: number; changes: string[] };
  if (id) {
    const before = await db.rate.findUnique({ where: { id }, select: rateAdminSelect });
    if (!before) throw new ValidationError("NOT_FOUND", { what: "Rate", id });
    await db.rate.update({ where: { id }, data, select: { id: true } });
    result = { id, changes: changedFields(before, data) };
  } else {
    const created = await db.rate.create({ data, select: { id: true } });
    result = { id: created.id, changes: Object.keys(data) };
  }
  forgetReference();
  return result;
}
