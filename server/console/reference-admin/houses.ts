// Houses as the street editor sends them: normalized, each once, placed in their regions.
import type { Db } from "../../db";
import { regionAt } from "../../geo/regions";
import { normalizeHouse } from "../../geo/normalize";
import { conflict } from "./common";

export interface HouseInput {
  number: string;
  lat?: number;
  lon?: number;
}

export async function houseRows(db: Db, cityId: number, street: { lat: number; lon: number }, houses: HouseInput[]) {
  const seen = new Set<string>();
  const rows: Array<{ number: string; numberKey: string; lat: number; lon: number; regionId: number | null }> = [];
  for (const h of houses) {
    const number = h.number.trim();
    const numberKey = normalizeHouse(number);
    if (!numberKey) continue;
    if (seen.has(numberKey)) throw conflict("houseTwice", { house: number });
    seen.add(numberKey);
    const lat = h.lat ?? street.lat;
    const lon = h.lon ?? street.lon;
    const region = await regionAt(db, lat, lon, cityId);
    rows.push({ number, numberKey, lat, lon, regionId: region?.id ?? null });
  }
  return rows;
}
