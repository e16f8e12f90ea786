// The console's language: a cookie the operator sets with the switch,
// else the configured LANGUAGE (Russian by default).
import { config } from "../config";
import { parseLocale, type Locale } from "../../shared/locale";

export { LOCALE_COOKIE, parseLocale, type Locale } from "../../shared/locale";

export function defaultLocale(): Locale {
  try {
    return config().LANGUAGE;
  } catch {
    return "ru";
  }
}

/** The locale of a request, from its Cookie header. */
export function localeFromCookieHeader(header: string | null | undefined): Locale {
  const match = /(?:^|;\s*)locale=([^;]*)/.exec(header ?? "");
  return parseLocale(match?.[1]) ?? defaultLocale();
}
