// Whether an error message is wholly in one language: the rule the error
// language tests hold every message of every interface to.

/**
 * Whether a message mixes languages. Words are split on spaces and stripped
 * of punctuation. A Russian message may hold Latin words only as identifiers:
 * codes and states (UPPER_CASE), names with an underscore, a digit, a dot,
 * a slash or an @ (txn_id, E.164, paths, e-mails), camelCase operation names,
 * the parameter the message names, and a closed list of protocol words. An
 * English message holds no Cyrillic word but the names a client sent (an
 * address), given as `allowed`.
 */
export function mixedWords(message: string, language: "ru" | "en", allowed: string[] = []): string[] {
  const PROTOCOL_WORDS = new Set(["token", "api_key", "uuid", "JSON", "NUL", "yes", "no", "id", "HTTP", "URL", "SMS", "GET", "POST", "PUT", "DELETE", "Idempotency-Key"]);
  const words = message
    .split(/\s+/)
    .map((w) => w.replace(/^[«"'([{]+|[»"')\]}:;,.!?…]+$/g, ""))
    .filter(Boolean);
  if (language === "en") return words.filter((w) => /[А-Яа-яЁё]/.test(w) && !allowed.some((a) => a.includes(w)));
  const hasRussian = words.some((w) => /[А-Яа-яЁё]/.test(w));
  if (!hasRussian) return words;
  return words.filter((w) => {
    if (!/[A-Za-z]/.test(w) || /[А-Яа-яЁё]/.test(w)) return false;
    if (allowed.includes(w) || PROTOCOL_WORDS.has(w)) return false;
    if (/^[A-Z0-9_]{2,}$/.test(w)) return false;
    if (/[_\d./@]/.test(w)) return false;
    if (/^[a-z]+[A-Z][A-Za-z]*$/.test(w)) return false;
    return true;
  });
}
