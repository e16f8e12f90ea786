// One street with its houses.
import type { Db } from "../../db";
import { ValidationError } from "../../errors";

export async function streetDetails(db: Db, streetId: number) {
  const street = await db.street.findUnique({
    where: { id: streetId },
    select: {
      id: true,
      cityId: true,
      kind: true,
      prefix: true,
      name: true,
      fullName: true,
      lat: true,
      lon: true,
      city: { select: { name: true, nameEn: true } },
      houses: { select: { id: true, number: true, lat: true, lon: true, region: { select: { id: true, name: true, nameEn: true } } } },
    },
  });
  if (!street) throw new ValidationError("NOT_FOUND", { what: "Street", id: streetId });
  const collator = new Intl.Collator("ru", { numeric: true });
  return { ...street, houses: street.houses.sort((a, b) => collator.compare(a.number, b.number)) };
}
