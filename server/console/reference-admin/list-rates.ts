// Rates of a service, for the administrators' reference pages.
import type { Db } from "../../db";
import { rateSelect } from "../../pricing/rates";

/** The console edits every field the pricing engine reads. */
export const rateAdminSelect = rateSelect;

export async function listRatesAdmin(db: Db, input: { serviceId?: number }) {
  return db.rate.findMany({
    where: input.serviceId ? { serviceId: input.serviceId } : {},
    orderBy: [{ serviceId: "asc" }, { isBasic: "desc" }, { id: "asc" }],
    select: { ...rateAdminSelect, service: { select: { name: true, nameEn: true } }, queue: { select: { name: true } } },
  });
}
