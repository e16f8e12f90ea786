// Geocoding of an address as clients send it: a street or public place from
// our street data with a house, or coordinates, or both. Public places need
// no house.
import type { DbOrTx } from "../db";
import { preparedQuery, type PreparedStatement } from "../db/sql";
import { GeoError } from "../errors";
import { normalizeHouse } from "./normalize";
import { regionAt } from "./regions";
import { findStreet } from "./streets";
import { cachedHouse, type CachedHouse } from "./house-cache";

export interface AddressInput {
  name?: string;
  street?: string;
  house?: string;
  lat?: number;
  lon?: number;
  entrance?: string;
  floor?: string;
  apartment?: string;
  regionId?: number;
}

export interface ResolvedAddress {
  name: string;
  street: string;
  house: string;
  lat: number;
  lon: number;
  regionId: number | null;
  cityId: number | null;
  publicPlace: boolean;
  /** false when the point is only as good as the coordinates the client gave */
  known: boolean;
  entrance: string;
  floor: string;
  apartment: string;
}

// A house by its normalised number: one indexed lookup on every estimate and
// order, so a prepared statement on the raw driver.
const HOUSE: PreparedStatement = {
  name: "geo_house",
  sql: `SELECT number, lat, lon, region_id AS "regionId" FROM house WHERE street_id = $1 AND number_key = $2`,
};

export interface ResolveOptions {
  cityId?: number;
  /** Parameter names for errors, e.g. "street"/"house" or "dst_street". */
  streetParam: string;
  houseParam: string;
  /**
   * A street with no house, or with a house we do not know, stands at the
   * street's own point (approximate: known false) instead of failing. For
   * estimates: chat bots have a "skip house" button and expect a price.
   */
  streetPointForHouse?: boolean;
}

export async function resolveAddress(db: DbOrTx, input: AddressInput, options: ResolveOptions): Promise<ResolvedAddress> {
  const extra = {
    name: input.name ?? "",
    entrance: input.entrance ?? "",
    floor: input.floor ?? "",
    apartment: input.apartment ?? "",
  };
  const hasPoint = input.lat !== undefined && input.lon !== undefined;
  const withRegion = async (lat: number, lon: number, cityId: number | null) => {
    const region = input.regionId !== undefined ? undefined : await regionAt(db, lat, lon, cityId ?? options.cityId);
    return { regionId: input.regionId ?? region?.id ?? null, cityId: cityId ?? region?.cityId ?? options.cityId ?? null };
  };

  const streetName = input.street?.trim() || input.name?.trim();
  if (!streetName) {
    if (!hasPoint) throw new GeoError("MISSING_PARAMETER", { parameter: options.streetParam });
    return { ...extra, street: "", house: input.house ?? "", lat: input.lat!, lon: input.lon!, ...(await withRegion(input.lat!, input.lon!, null)), publicPlace: false, known: false };
  }

  const street = await findStreet(db, options.cityId, streetName);
  if (!street) {
    if (hasPoint) {
      return { ...extra, street: streetName, house: input.house ?? "", lat: input.lat!, lon: input.lon!, ...(await withRegion(input.lat!, input.lon!, null)), publicPlace: false, known: false };
    }
    throw new GeoError("ADDRESS_NOT_FOUND", { address: streetName, parameter: options.streetParam });
  }

  if (street.kind === "PUBLIC_PLACE") {
    const lat = input.lat ?? street.lat;
    const lon = input.lon ?? street.lon;
    return { ...extra, street: street.fullName, house: input.house ?? "", lat, lon, ...(await withRegion(lat, lon, street.cityId)), publicPlace: true, known: true };
  }

  const houseText = input.house?.trim();
  // Where the house cannot place the point: the client's coordinates, else
  // (when allowed) the street's own point; either way only approximate.
  const withoutHouse = async (house: string): Promise<ResolvedAddress | undefined> => {
    const lat = hasPoint ? input.lat! : options.streetPointForHouse ? street.lat : undefined;
    const lon = hasPoint ? input.lon! : options.streetPointForHouse ? street.lon : undefined;
    if (lat === undefined || lon === undefined) return undefined;
    return { ...extra, street: street.fullName, house, lat, lon, ...(await withRegion(lat, lon, street.cityId)), publicPlace: false, known: false };
  };
  if (!houseText) {
    const placed = await withoutHouse("");
    if (placed) return placed;
    throw new GeoError("MISSING_PARAMETER", { parameter: options.houseParam });
  }
  const numberKey = normalizeHouse(houseText);
  const house = await cachedHouse(db, street.id, numberKey, async () => (await preparedQuery<CachedHouse>(db, HOUSE, [street.id, numberKey]))[0]);
  if (!house) {
    const placed = await withoutHouse(houseText);
    if (placed) return placed;
    throw new GeoError("ADDRESS_NOT_FOUND", { address: `${street.fullName}, ${houseText}` });
  }
  const lat = input.lat ?? house.lat;
  const lon = input.lon ?? house.lon;
  return {
    ...extra,
    street: street.fullName,
    house: house.number,
    lat,
    lon,
    regionId: input.regionId ?? house.regionId ?? (await withRegion(lat, lon, street.cityId)).regionId,
    cityId: street.cityId,
    publicPlace: false,
    known: true,
  };
}
