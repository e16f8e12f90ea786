// Normalisation of addresses for search: the one definition shared by the
// seed (which writes Street.searchKey, StreetWord and House.numberKey) and the
// API (which normalises what it is asked for the same way).

/** Lower case, "ё" as "е", runs of whitespace as one space, trimmed. */
export function normalizeForSearch(text: string): string {
  return text.toLowerCase().replace(/ё/g, "е").replace(/\s+/g, " ").trim();
}

/**
 * Words separate at spaces, hyphens, dots and slashes (and commas, semicolons,
 * brackets and quotes, which never belong to a word).
 */
const WORD_SEPARATORS = /[\s\-./,;()«»"]+/;

/**
 * The words of a (full) name, normalised, in order, empty pieces dropped:
 * "пр-т Зелёный" gives ["пр", "т", "зеленый"], "ул. Ленина" ["ул", "ленина"].
 */
export function searchWords(fullName: string): string[] {
  return normalizeForSearch(fullName)
    .split(WORD_SEPARATORS)
    .filter((word) => word.length > 0);
}

/** A house number for lookups: lower case, no whitespace, "ё" as "е" ("12 К2" gives "12к2"). */
export function normalizeHouse(n: string): string {
  return n.toLowerCase().replace(/ё/g, "е").replace(/\s+/g, "");
}
