// Adding a street with its houses (forgets the street index).
import type { Db } from "../../db";
import { isUniqueViolation } from "../../errors";
import { normalizeForSearch, searchWords } from "../../geo/normalize";
import { forgetStreets } from "../../geo/street-index";
import { forgetBasemaps } from "../map";
import { conflict, requireCity } from "./common";
import { HouseInput, houseRows } from "./houses";

export interface StreetInput {
  cityId: number;
  kind: "STREET" | "PUBLIC_PLACE";
  prefix: string;
  name: string;
  lat: number;
  lon: number;
  houses: HouseInput[];
}

export async function addStreet(db: Db, input: StreetInput) {
  await requireCity(db, input.cityId);
  const prefix = input.kind === "PUBLIC_PLACE" ? "" : input.prefix.trim();
  const name = input.name.trim();
  const fullName = prefix ? `${prefix} ${name}` : name;
  const searchKey = normalizeForSearch(fullName);
  const exists = await db.street.findUnique({ where: { cityId_searchKey: { cityId: input.cityId, searchKey } }, select: { id: true } });
  if (exists) throw conflict("streetExists", { street: fullName });
  const houses = await houseRows(db, input.cityId, input, input.houses);
  try {
    const street = await db.$transaction(async (tx) => {
      const created = await tx.street.create({
        data: { cityId: input.cityId, kind: input.kind, prefix, name, fullName, searchKey, lat: input.lat, lon: input.lon },
        select: { id: true },
      });
      const words = searchWords(fullName);
      if (words.length) await tx.streetWord.createMany({ data: words.map((word, position) => ({ streetId: created.id, position, word })) });
      if (houses.length) await tx.house.createMany({ data: houses.map((h) => ({ ...h, streetId: created.id })) });
      return created;
    });
    forgetBasemaps();
    // The database notifies every instance too; this one need not wait for it.
    forgetStreets();
    return { id: street.id, fullName, houses: houses.length };
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("streetExists", { street: fullName });
    throw error;
  }
}
