// Street search and lookup. `pattern` matches the beginning of any word of a
// street's or public place's full name (prefix included), case-insensitive,
// е/ё alike; every word of the pattern must match some word. The word table
// (street_word, text_pattern_ops index) makes each pattern word one indexed
// range scan instead of a scan of the street table.
import { rawQuery, type DbOrTx } from "../db";
import { normalizeForSearch, searchWords } from "./normalize";

export interface StreetMatch {
  id: number;
  cityId: number;
  fullName: string;
  kind: "STREET" | "PUBLIC_PLACE";
  lat: number;
  lon: number;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface StreetSearch {
  pattern: string;
  cityId?: number;
  limit?: number;
}

/**
 * Ordered by relevance: a name that begins with the pattern first, then a
 * match on the name's first word after the prefix, then the rest; shorter
 * names first within a rank.
 */
export async function searchStreets(db: DbOrTx, input: StreetSearch): Promise<StreetMatch[]> {
  const words = searchWords(input.pattern).slice(0, 6);
  if (words.length === 0) return [];
  const limit = Math.min(Math.max(input.limit ?? 50, 1), 200);
  const normalized = normalizeForSearch(input.pattern);
  const params: unknown[] = [];
  const conditions = words.map((word) => {
    params.push(`${escapeLike(word)}%`);
    return `EXISTS (SELECT 1 FROM street_word w WHERE w.street_id = s.id AND w.word LIKE $${params.length})`;
  });
  params.push(`${escapeLike(normalized)}%`);
  const startsParam = params.length;
  params.push(`${escapeLike(words[0]!)}%`);
  const firstParam = params.length;
  let cityCondition = "";
  if (input.cityId !== undefined) {
    params.push(input.cityId);
    cityCondition = `AND s.city_id = $${params.length}`;
  }
  params.push(limit);
  const sql = `
    SELECT s.id, s.city_id AS "cityId", s.full_name AS "fullName", s.kind::text AS kind, s.lat, s.lon
      FROM street s
     WHERE ${conditions.join(" AND ")} ${cityCondition}
     ORDER BY CASE
                WHEN s.search_key LIKE $${startsParam} OR lower(replace(s.name, 'ё', 'е')) LIKE $${startsParam} THEN 0
                WHEN lower(replace(s.name, 'ё', 'е')) LIKE $${firstParam} THEN 1
                ELSE 2
              END,
              length(s.full_name), s.full_name
     LIMIT $${params.length}`;
  return rawQuery(db)<StreetMatch>(sql, params);
}

/**
 * The street a client named, within a city: by its normalised full name, or,
 * failing that, the one street whose words all begin with the given words
 * ("Ленина" finds "ул. Ленина" when no other street matches).
 */
export async function findStreet(db: DbOrTx, cityId: number | undefined, name: string): Promise<StreetMatch | undefined> {
  const key = normalizeForSearch(name);
  if (!key) return undefined;
  const exact = await db.street.findFirst({
    where: { searchKey: key, ...(cityId !== undefined ? { cityId } : {}) },
    select: { id: true, cityId: true, fullName: true, kind: true, lat: true, lon: true },
    orderBy: { id: "asc" },
  });
  if (exact) return exact;
  const candidates = await searchStreets(db, { pattern: name, cityId, limit: 5 });
  const words = searchWords(name);
  const whole = candidates.filter((c) => {
    const own = searchWords(c.fullName);
    return words.every((w) => own.includes(w));
  });
  if (whole.length === 1) return whole[0];
  return candidates.length === 1 ? candidates[0] : undefined;
}
