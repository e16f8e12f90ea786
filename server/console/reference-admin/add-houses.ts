// Adding houses to a street.
import type { Db } from "../../db";
import { ValidationError } from "../../errors";
import { forgetBasemaps } from "../map";
import { conflict } from "./common";
import { HouseInput, houseRows } from "./houses";

export async function addHouses(db: Db, input: { streetId: number; houses: HouseInput[] }) {
  const street = await db.street.findUnique({ where: { id: input.streetId }, select: { id: true, cityId: true, lat: true, lon: true, houses: { select: { numberKey: true } } } });
  if (!street) throw new ValidationError("NOT_FOUND", { what: "Street", id: input.streetId });
  const rows = await houseRows(db, street.cityId, street, input.houses);
  const taken = rows.find((r) => street.houses.some((h) => h.numberKey === r.numberKey));
  if (taken) throw conflict("houseExists", { house: taken.number });
  await db.house.createMany({ data: rows.map((h) => ({ ...h, streetId: street.id })) });
  forgetBasemaps();
  return { id: street.id, houses: rows.length };
}
