// The street search as it was in SQL (before the in-memory index of
// server/geo/street-index.ts), kept for the tests that compare the two, and a
// generator of search patterns over a city's streets.
import type { RawQuery } from "@/server/db";
import { normalizeForSearch, searchWords } from "@/server/geo/normalize";
import { mulberry32 } from "@/server/seed/demo/random";
import type { StreetMatch, StreetSearch } from "@/server/geo/street-index";

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The former searchStreets, statement for statement, with one addition: `s.id`
 * as the last key of the order. Without it, streets of equal rank and full
 * name (one name in two cities) came in whatever order the plan gave; the
 * index orders them by id.
 */
export async function searchStreetsSql(query: RawQuery, input: StreetSearch): Promise<StreetMatch[]> {
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
              length(s.full_name), s.full_name, s.id
     LIMIT $${params.length}`;
  return query<StreetMatch>(sql, params);
}

/** The former findStreet (its exact match was a Prisma findFirst ordered by id). */
export async function findStreetSql(query: RawQuery, cityId: number | undefined, name: string): Promise<StreetMatch | undefined> {
  const key = normalizeForSearch(name);
  if (!key) return undefined;
  const [exact] = await query<StreetMatch>(
    `SELECT id, city_id AS "cityId", full_name AS "fullName", kind::text AS kind, lat, lon
       FROM street WHERE search_key = $1 ${cityId !== undefined ? "AND city_id = $2" : ""} ORDER BY id LIMIT 1`,
    cityId !== undefined ? [key, cityId] : [key],
  );
  if (exact) return exact;
  const candidates = await searchStreetsSql(query, { pattern: name, cityId, limit: 5 });
  const words = searchWords(name);
  const whole = candidates.filter((c) => {
    const own = searchWords(c.fullName);
    return words.every((w) => own.includes(w));
  });
  if (whole.length === 1) return whole[0];
  return candidates.length === 1 ? candidates[0] : undefined;
}

/**
 * Search patterns over these streets' full names: every first letter of a
 * word, samples of 2- and 3-letter prefixes and of whole words, two and three
 * words in and out of order, with punctuation, е written as ё and ё as е, in
 * capitals, whole names, more than six words, LIKE's special characters and
 * words that match nothing.
 */
export function streetPatterns(fullNames: readonly string[], seed = 1, samples = 60): string[] {
  const rnd = mulberry32(seed);
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
  const sample = <T,>(items: readonly T[], n: number): T[] => Array.from({ length: Math.min(n, items.length) }, () => pick(items));
  const words = [...new Set(fullNames.flatMap((name) => searchWords(name)))].sort();
  const out = new Set<string>();
  for (const w of words) out.add(w.slice(0, 1));
  for (const n of [2, 3]) for (const w of sample(words.filter((x) => x.length >= n), samples)) out.add(w.slice(0, n));
  for (const w of sample(words, samples)) out.add(w);
  for (const name of sample(fullNames, samples)) {
    out.add(name);
    out.add(name.toUpperCase());
    const own = searchWords(name);
    if (own.length >= 2) {
      const a = own[0]!;
      const b = own[own.length - 1]!;
      out.add(`${a} ${b.slice(0, 3)}`);
      out.add(`${b.slice(0, 2)} ${a}`);
      out.add(`${a}. ${b.slice(0, 1).toUpperCase()}${b.slice(1, 4)}`);
      out.add(`${b.slice(0, 3)}-${a.slice(0, 1)}`);
    }
    if (own.length >= 3) out.add(own.map((w) => w.slice(0, 2)).join(" "));
    out.add(name.replace(/е/g, "ё"));
    out.add(name.replace(/ё/g, "е").toLowerCase());
    out.add(name.replace(/Е/g, "Ё").slice(0, 5));
  }
  for (const w of sample(words.filter((x) => x.includes("е")), samples)) {
    out.add(w.replace("е", "ё"));
    out.add(w.replace("е", "Ё").slice(0, 4));
  }
  for (const name of fullNames.filter((n) => /[ёЁ]/.test(n)).slice(0, samples)) {
    out.add(name.slice(0, 6));
    out.add(name.toLowerCase().replace(/ё/g, "е").slice(0, 8));
  }
  for (const p of [
    "", "   ", "%", "_", "\\", "ул%", "у_", "%лен", "ул.", "ул лен ул", "а б в г д е ж з", "ул ул ул ул ул ул ул",
    "пр-т", "ж/д", "Ж/Д вокзал", "«Аэропорт»", "1", "2-я", "1-й", "zzz", "щщщ", "ул. zz", "  Ул.   Лен  ", "ЁЛ", "ёл", "ел",
  ]) out.add(p);
  return [...out];
}
