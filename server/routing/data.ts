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

/** Segment and junction counts per city, for the console's statistics. */
export async function networkCounts(query: RawQuery): Promise<Array<{ cityId: number; nodes: number; segments: number; metres: number }>> {
  return query(
    `SELECT c.id AS "cityId",
            (SELECT count(*)::int FROM road_node n WHERE n.city_id = c.id) AS nodes,
            (SELECT count(*)::int FROM road_segment s WHERE s.city_id = c.id) AS segments,
            (SELECT coalesce(sum(length), 0)::float8 FROM road_segment s WHERE s.city_id = c.id) AS metres
       FROM city c ORDER BY c.id`,
  );
}
