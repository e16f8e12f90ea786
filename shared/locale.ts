// The console's languages (the browser and the server agree on these).
export type Locale = "ru" | "en";
export const LOCALE_COOKIE = "locale";

export function parseLocale(value: string | undefined | null): Locale | undefined {
  return value === "ru" || value === "en" ? value : undefined;
}
