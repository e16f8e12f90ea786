// Street search and lookup. `pattern` matches the beginning of any word of a
// street's or public place's full name (prefix included), case-insensitive,
// е/ё alike; every word of the pattern must match some word. Answered from
// the process's in-memory index of the streets and their stored words
// (street-index.ts), which the database invalidates on every change.
import type { DbOrTx } from "../db";
import { normalizeForSearch, searchWords } from "./normalize";
import { streetIndex, type StreetMatch, type StreetSearch } from "./street-index";

export type { StreetMatch, StreetSearch } from "./street-index";

/**
 * Ordered by relevance: a name that begins with the pattern first, then a
 * match on the name's first word after the prefix, then the rest; shorter
 * names first within a rank.
 */
export async function searchStreets(db: DbOrTx, input: StreetSearch): Promise<StreetMatch[]> {
  if (searchWords(input.pattern).length === 0) return [];
  return (await streetIndex(db)).search(input);
}

/**
 * The street a client named, within a city: by its normalised full name, or,
 * failing that, the one street whose words all begin with the given words
 * ("Ленина" finds "ул. Ленина" when no other street matches).
 */
export async function findStreet(db: DbOrTx, cityId: number | undefined, name: string): Promise<StreetMatch | undefined> {
  const key = normalizeForSearch(name);
  if (!key) return undefined;
  const index = await streetIndex(db);
  const exact = index.exact(key, cityId);
  if (exact) return exact;
  const candidates = index.search({ pattern: name, cityId, limit: 5 });
  const words = searchWords(name);
  const whole = candidates.filter((c) => {
    const own = searchWords(c.fullName);
    return words.every((w) => own.includes(w));
  });
  if (whole.length === 1) return whole[0];
  return candidates.length === 1 ? candidates[0] : undefined;
}

/** Every street and public place of a city, or of all cities (see StreetIndex.names). */
export async function allStreetNames(db: DbOrTx, cityId?: number): Promise<readonly string[]> {
  return (await streetIndex(db)).names(cityId);
}
