// The console's language: a cookie the operator sets with the switch,
// else the configured LANGUAGE (Russian by default).
import { config } from "../config";

export type Locale = "ru" | "en";
export const LOCALE_COOKIE = "locale";

export function parseLocale(value: string | undefined | null): Locale | undefined {
  return value === "ru" || value === "en" ? value : undefined;
}

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
