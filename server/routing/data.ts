// The road network's SQL: reading a city's graph for the in-memory router.
// (Writing is the seed's and the OSM import's, in their own data modules.)
import type { RawQuery } from "../db";
import type { RoadNetworkData, RoadNodeRow, RoadSegmentRow } from "./graph";
import type { SpeedOverride } from "./speeds";

export interface CityNetwork extends RoadNetworkData {
  cityId: number;
  timezone: string;
}

/** The city's junctions, segments and speed overrides; undefined when there is no such city. */
export async function readCityNetwork(query: RawQuery, cityId: number): Promise<CityNetwork | undefined> {
  const [city] = await query<{ timezone: string }>(`SELECT timezone FROM city WHERE id = $1`, [cityId]);
  if (!city) return undefined;
  const nodes = await query<RoadNodeRow>(`SELECT id, lat, lon FROM road_node WHERE city_id = $1 ORDER BY id`, [cityId]);
  const segments = await query<RoadSegmentRow>(
    `SELECT id, from_node_id AS "from", to_node_id AS "to", length, road_class::text AS "roadClass", oneway, name,
            street_id AS "streetId", shape
       FROM road_segment WHERE city_id = $1 ORDER BY id`,
    [cityId],
  );
  const speeds = await query<SpeedOverride>(`SELECT road_class::text AS "roadClass", hour, kmh FROM road_speed WHERE city_id = $1`, [cityId]);
  return { cityId, timezone: city.timezone, nodes, segments, speeds };
}

export async function citiesWithRoads(query: RawQuery): Promise<number[]> {
  const rows = await query<{ id: number }>(`SELECT c.id FROM city c WHERE EXISTS (SELECT 1 FROM road_segment s WHERE s.city_id = c.id) ORDER BY c.id`);
  return rows.map((r) => Number(r.id));
}

export interface NetworkCounts {
  cityId: number;
  city: string;
  nodes: number;
  segments: number;
  onewaySegments: number;
  km: number;
  byClass: Record<string, number>;
}

/** Junctions, segments, one-way segments, length and segments by class per city. */
export async function networkCounts(query: RawQuery): Promise<NetworkCounts[]> {
  const rows = await query<{ cityId: number; city: string; nodes: number; segments: number; onewaySegments: number; km: number; byClass: Record<string, number> | null }>(
    `SELECT c.id AS "cityId", c.name AS city,
            (SELECT count(*)::int FROM road_node n WHERE n.city_id = c.id) AS nodes,
            coalesce(s.segments, 0) AS segments, coalesce(s.oneway, 0) AS "onewaySegments", coalesce(s.km, 0) AS km, k.by_class AS "byClass"
       FROM city c
       LEFT JOIN (SELECT city_id, count(*)::int AS segments, (count(*) FILTER (WHERE oneway))::int AS oneway, (sum(length) / 1000)::float8 AS km
                    FROM road_segment GROUP BY city_id) s ON s.city_id = c.id
       LEFT JOIN (SELECT city_id, json_object_agg(road_class, n) AS by_class
                    FROM (SELECT city_id, road_class::text AS road_class, count(*)::int AS n FROM road_segment GROUP BY city_id, road_class) x
                   GROUP BY city_id) k ON k.city_id = c.id
      ORDER BY c.id`,
  );
  return rows.map((r) => ({ ...r, km: Math.round(Number(r.km) * 10) / 10, byClass: r.byClass ?? {} }));
}

export interface ImportRow {
  id: number;
  cityId: number;
  city: string;
  file: string;
  startedAt: Date;
  finishedAt: Date | null;
  nodes: number;
  segments: number;
  streets: number;
  houses: number;
  places: number;
  seconds: number;
  peakMemoryMb: number;
}

/** The latest OSM imports, newest first. */
export async function recentImports(query: RawQuery, limit: number): Promise<ImportRow[]> {
  return query<ImportRow>(
    `SELECT i.id, i.city_id AS "cityId", c.name AS city, i.file, i.started_at AS "startedAt", i.finished_at AS "finishedAt", i.nodes, i.segments,
            i.streets, i.houses, i.places, i.seconds, i.peak_memory_mb AS "peakMemoryMb"
       FROM osm_import i JOIN city c ON c.id = i.city_id ORDER BY i.id DESC LIMIT $1`,
    [limit],
  );
}
