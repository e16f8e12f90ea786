// The road network as an administrator sees it: per city the stored network
// (junctions, segments, one-way share, length, classes) beside what this
// instance holds in memory, and the history of OSM imports.
import type { DbOrTx } from "../db";
import { rawQuery } from "../db/sql";
import { networkCounts, recentImports } from "./data";
import { roadGraphStatus } from "./graph-cache";

export async function networkStatistics(db: DbOrTx) {
  const query = rawQuery(db);
  const loaded = new Map(roadGraphStatus().cities.map((c) => [c.cityId, c]));
  const cities = (await networkCounts(query)).map((c) => ({
    ...c,
    inMemory: { segments: loaded.get(c.cityId)?.segments ?? 0, current: loaded.get(c.cityId)?.current ?? false },
  }));
  return { cities, imports: await recentImports(query, 50) };
}
