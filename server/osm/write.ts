// The OSM import's SQL: a city's roads, streets, houses and places written
// in one transaction, as upserts keyed by what OpenStreetMap names them (node
// and way ids, street names, house numbers), so that importing the same file
// again changes nothing and a newer file updates in place. Roads the file no
// longer has are deleted (they are the import's own); streets and houses are
// kept (orders and operators refer to them).
import type { Tx } from "../db";
import { normalizeForSearch, normalizeHouse, searchWords } from "../geo/normalize";
import type { OsmCity } from "./extract";
import { sqlExecute, sqlQuery } from "../db/sql";

type Row = Record<string, string | number | boolean | number[] | null>;

const BATCH = 20_000;

/** Runs `sql` with $1 = the city and $2 = a JSON array of rows, batch by batch. */
async function eachBatch(tx: Tx, sql: string, cityId: number, rows: readonly Row[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await sqlExecute(tx, sql, [cityId, JSON.stringify(rows.slice(i, i + BATCH))]);
}

export async function findOrCreateCity(tx: Tx, name: string, centre: { lat: number; lon: number }, timezone: string): Promise<{ id: number; created: boolean }> {
  const [found] = await sqlQuery<{ id: number }>(tx, `SELECT id FROM city WHERE name = $1 ORDER BY id LIMIT 1`, [name]);
  if (found) return { id: Number(found.id), created: false };
  const [made] = await sqlQuery<{ id: number }>(
    tx,
    `INSERT INTO city (name, name_en, timezone, lat, lon) VALUES ($1, $1, $2, $3, $4) RETURNING id`,
    [name, timezone, centre.lat, centre.lon],
  );
  return { id: Number(made!.id), created: true };
}

export interface WriteCounts {
  nodes: number;
  segments: number;
  streets: number;
  houses: number;
  places: number;
}

export async function writeCity(tx: Tx, cityId: number, city: OsmCity, regionOf: (lat: number, lon: number) => number | null): Promise<WriteCounts> {
  // Streets and places, one row per search key (two spellings of one name are one street).
  const streetRows = new Map<string, Row>();
  for (const [name, p] of city.streets) {
    const key = normalizeForSearch(name);
    if (key && !streetRows.has(key)) streetRows.set(key, { key, name, kind: "STREET", lat: p.lat, lon: p.lon });
  }
  let places = 0;
  for (const p of city.places) {
    const key = normalizeForSearch(p.name);
    if (!key || streetRows.has(key)) continue;
    streetRows.set(key, { key, name: p.name, kind: "PUBLIC_PLACE", lat: p.lat, lon: p.lon });
    places++;
  }
  await eachBatch(
    tx,
    `INSERT INTO street (city_id, kind, prefix, name, full_name, search_key, lat, lon)
     SELECT $1, x.kind::"StreetKind", '', x.name, x.name, x.key, x.lat, x.lon
       FROM json_to_recordset($2::json) AS x(key text, name text, kind text, lat float8, lon float8)
     ON CONFLICT (city_id, search_key) DO UPDATE SET name = EXCLUDED.name, full_name = EXCLUDED.full_name, lat = EXCLUDED.lat, lon = EXCLUDED.lon
      WHERE (street.name, street.lat, street.lon) IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.lat, EXCLUDED.lon)`,
    cityId,
    [...streetRows.values()],
  );
  const words: Row[] = [];
  for (const row of streetRows.values()) searchWords(String(row.name)).forEach((word, position) => words.push({ key: row.key as string, position, word }));
  await eachBatch(
    tx,
    `INSERT INTO street_word (street_id, position, word)
     SELECT s.id, x.position, x.word FROM json_to_recordset($2::json) AS x(key text, position int, word text)
       JOIN street s ON s.city_id = $1 AND s.search_key = x.key
     ON CONFLICT (street_id, position) DO UPDATE SET word = EXCLUDED.word WHERE street_word.word <> EXCLUDED.word`,
    cityId,
    words,
  );

  // Houses, one per street and number.
  const houseRows = new Map<string, Row>();
  for (const h of city.houses) {
    const key = normalizeForSearch(h.street);
    const numberKey = normalizeHouse(h.number);
    if (!key || !numberKey) continue;
    houseRows.set(`${key}\u0000${numberKey}`, { key, number: h.number, number_key: numberKey, lat: h.lat, lon: h.lon, region_id: regionOf(h.lat, h.lon) });
  }
  await eachBatch(
    tx,
    `INSERT INTO house (street_id, number, number_key, lat, lon, region_id)
     SELECT s.id, x.number, x.number_key, x.lat, x.lon, x.region_id
       FROM json_to_recordset($2::json) AS x(key text, number text, number_key text, lat float8, lon float8, region_id int)
       JOIN street s ON s.city_id = $1 AND s.search_key = x.key
     ON CONFLICT (street_id, number_key) DO UPDATE SET number = EXCLUDED.number, lat = EXCLUDED.lat, lon = EXCLUDED.lon, region_id = EXCLUDED.region_id
      WHERE (house.number, house.lat, house.lon, house.region_id) IS DISTINCT FROM (EXCLUDED.number, EXCLUDED.lat, EXCLUDED.lon, EXCLUDED.region_id)`,
    cityId,
    [...houseRows.values()],
  );

  // Junctions, then segments (joined to their junctions and streets by OSM id and name).
  const nodeRows: Row[] = [...city.junctions].map(([osm, c]) => ({ osm, lat: c.lat, lon: c.lon }));
  await eachBatch(
    tx,
    `INSERT INTO road_node (city_id, osm_id, lat, lon)
     SELECT $1, x.osm, x.lat, x.lon FROM json_to_recordset($2::json) AS x(osm bigint, lat float8, lon float8)
     ON CONFLICT (city_id, osm_id) DO UPDATE SET lat = EXCLUDED.lat, lon = EXCLUDED.lon
      WHERE (road_node.lat, road_node.lon) IS DISTINCT FROM (EXCLUDED.lat, EXCLUDED.lon)`,
    cityId,
    nodeRows,
  );
  const segmentRows: Row[] = city.segments.map((s) => ({
    way: s.wayId,
    part: s.part,
    f: s.from,
    t: s.to,
    length: s.length,
    cls: s.roadClass,
    oneway: s.oneway,
    name: s.name,
    key: s.name ? normalizeForSearch(s.name) : null,
    shape: s.shape,
  }));
  await eachBatch(
    tx,
    `INSERT INTO road_segment (city_id, osm_way_id, osm_part, from_node_id, to_node_id, length, road_class, oneway, name, street_id, shape)
     SELECT $1, x.way, x.part, f.id, t.id, x.length, x.cls::"RoadClass", x.oneway, x.name, s.id, x.shape
       FROM json_to_recordset($2::json) AS x(way bigint, part int, f bigint, t bigint, length float8, cls text, oneway boolean, name text, key text, shape float8[])
       JOIN road_node f ON f.city_id = $1 AND f.osm_id = x.f
       JOIN road_node t ON t.city_id = $1 AND t.osm_id = x.t
       LEFT JOIN street s ON s.city_id = $1 AND s.search_key = x.key
     ON CONFLICT (city_id, osm_way_id, osm_part) DO UPDATE SET
        from_node_id = EXCLUDED.from_node_id, to_node_id = EXCLUDED.to_node_id, length = EXCLUDED.length, road_class = EXCLUDED.road_class,
        oneway = EXCLUDED.oneway, name = EXCLUDED.name, street_id = EXCLUDED.street_id, shape = EXCLUDED.shape
      WHERE (road_segment.from_node_id, road_segment.to_node_id, road_segment.length, road_segment.road_class, road_segment.oneway,
             road_segment.name, road_segment.street_id, road_segment.shape)
            IS DISTINCT FROM (EXCLUDED.from_node_id, EXCLUDED.to_node_id, EXCLUDED.length, EXCLUDED.road_class, EXCLUDED.oneway,
             EXCLUDED.name, EXCLUDED.street_id, EXCLUDED.shape)`,
    cityId,
    segmentRows,
  );

  // What the file no longer has: its segments, then the junctions no segment uses.
  await sqlExecute(
    tx,
    `DELETE FROM road_segment r
      WHERE r.city_id = $1 AND r.osm_way_id IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM json_to_recordset($2::json) AS x(way bigint, part int) WHERE x.way = r.osm_way_id AND x.part = r.osm_part)`,
    [cityId, JSON.stringify(city.segments.map((s) => ({ way: s.wayId, part: s.part })))],
  );
  await sqlExecute(
    tx,
    `DELETE FROM road_node n
      WHERE n.city_id = $1 AND n.osm_id IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM json_array_elements_text($2::json) AS x(osm) WHERE x.osm::bigint = n.osm_id)`,
    [cityId, JSON.stringify([...city.junctions.keys()])],
  );
  return { nodes: nodeRows.length, segments: segmentRows.length, streets: streetRows.size - places, houses: houseRows.size, places };
}

export async function recordImport(tx: Tx, cityId: number, file: string, counts: WriteCounts, seconds: number, peakMemoryMb: number): Promise<number> {
  const [row] = await sqlQuery<{ id: number }>(
    tx,
    `INSERT INTO osm_import (city_id, file, finished_at, nodes, segments, streets, houses, places, seconds, peak_memory_mb)
     VALUES ($1, $2, now(), $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [cityId, file, counts.nodes, counts.segments, counts.streets, counts.houses, counts.places, seconds, peakMemoryMb],
  );
  return Number(row!.id);
}
