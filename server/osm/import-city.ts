// `npm run import:osm`: a city from an OpenStreetMap extract. Reads the file
// (extract.ts, two streaming passes), then writes everything in one
// transaction (write.ts): the roads become the city's graph (the routers of
// every instance reload on the change), the street names, addresses and
// places its street search and geocoding.
import path from "node:path";
import type { Db } from "../db";
import { liftTimeouts } from "../db/sql";
import { allRegions } from "../geo/regions";
import { pointInPolygon } from "../geo/polygon";
import { extractCity } from "./extract";
import { findOrCreateCity, recordImport, writeCity, type WriteCounts } from "./write";

export interface ImportOptions {
  file: string;
  city: string;
  /** For a new city. */
  timezone?: string;
  log?: (message: string) => void;
}

export interface ImportResult extends WriteCounts {
  importId: number;
  cityId: number;
  cityCreated: boolean;
  ways: number;
  readSeconds: number;
  writeSeconds: number;
  peakMemoryMb: number;
}

function peakMemoryMb(): number {
  // maxRSS: the process's peak resident set, in kilobytes.
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

export async function importOsm(db: Db, options: ImportOptions): Promise<ImportResult> {
  const log = options.log ?? (() => undefined);
  const t0 = performance.now();
  const city = await extractCity(options.file);
  const readSeconds = (performance.now() - t0) / 1000;
  log(`read ${city.ways} ways: ${city.segments.length} road segments, ${city.streets.size} street names, ${city.houses.length} addresses, ${city.places.length} places (${readSeconds.toFixed(1)} s)`);
  if (city.segments.length === 0 && city.houses.length === 0) throw new Error(`no roads and no addresses in ${options.file}`);
  const centre = { lat: (city.bounds.minLat + city.bounds.maxLat) / 2, lon: (city.bounds.minLon + city.bounds.maxLon) / 2 };

  const t1 = performance.now();
  const result = await db.$transaction(
    async (tx) => {
      await liftTimeouts(tx);
      const { id: cityId, created } = await findOrCreateCity(tx, options.city, centre, options.timezone ?? "Europe/Moscow");
      const regions = (await allRegions(tx)).filter((r) => r.cityId === cityId);
      const regionOf = (lat: number, lon: number) =>
        regions.find((r) => lat >= r.minLat && lat <= r.maxLat && lon >= r.minLon && lon <= r.maxLon && pointInPolygon(lat, lon, r.polygon))?.id ?? null;
      const counts = await writeCity(tx, cityId, city, regionOf);
      const writeSeconds = (performance.now() - t1) / 1000;
      const importId = await recordImport(tx, cityId, path.basename(options.file), counts, readSeconds + writeSeconds, peakMemoryMb());
      return { ...counts, importId, cityId, cityCreated: created, writeSeconds };
    },
    { timeout: 60 * 60_000, maxWait: 60_000 },
  );
  log(`wrote city ${result.cityId}${result.cityCreated ? " (new)" : ""}: ${result.nodes} junctions, ${result.segments} segments, ${result.streets} streets, ${result.houses} houses, ${result.places} places (${result.writeSeconds.toFixed(1)} s)`);
  return { ...result, ways: city.ways, readSeconds, peakMemoryMb: peakMemoryMb() };
}
