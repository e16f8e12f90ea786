"use client";
// The console's language and formats: strings, money (kopecks to roubles),
// dates and times in the city's time zone, phone numbers, state titles.
import { createContext, useContext, useMemo, type ReactNode } from "react";
import { consoleStrings, type ConsoleStrings } from "@/shared/i18n/console";
import { STATE_TITLES, isOrderState } from "@/shared/orders/states";
import { formatPhone } from "@/shared/phone-format";
import { formatKopecks } from "@/shared/money";

export type Locale = "ru" | "en";

export interface Formats {
  money: (kopecks: number | bigint | null | undefined) => string;
  dateTime: (at: Date | null | undefined) => string;
  time: (at: Date | null | undefined) => string;
  /** Time today, else day and time. */
  when: (at: Date | null | undefined) => string;
  km: (metres: number | null | undefined) => string;
  phone: (phone: string) => string;
  ago: (at: Date | null | undefined) => string;
}

interface I18n {
  locale: Locale;
  t: ConsoleStrings;
  timeZone: string;
  fmt: Formats;
  stateTitle: (state: string) => string;
}

const Context = createContext<I18n | null>(null);

export function makeFormats(locale: Locale, timeZone: string): Formats {
  const tag = locale === "ru" ? "ru-RU" : "en-GB";
  const dateTime = new Intl.DateTimeFormat(tag, { timeZone, day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit" });
  const dayTime = new Intl.DateTimeFormat(tag, { timeZone, day: "2-digit", month: "short", hour: "2-digit", minute: "2-digit" });
  const time = new Intl.DateTimeFormat(tag, { timeZone, hour: "2-digit", minute: "2-digit" });
  const day = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  const num = new Intl.NumberFormat(tag, { maximumFractionDigits: 1 });
  const rel = new Intl.RelativeTimeFormat(tag, { numeric: "auto", style: "short" });
  return {
    money: (k) => formatKopecks(k, locale, { wholeRoublesBare: true }),
    dateTime: (at) => (at ? dateTime.format(at) : "—"),
    time: (at) => (at ? time.format(at) : "—"),
    when: (at) => {
      if (!at) return "—";
      return day.format(at) === day.format(new Date()) ? time.format(at) : dayTime.format(at);
    },
    km: (m) => (m === null || m === undefined ? "—" : num.format(m / 1000)),
    phone: (p) => (p ? formatPhone(p) : "—"),
    ago: (at) => {
      if (!at) return "—";
      const s = Math.round((at.getTime() - Date.now()) / 1000);
      if (Math.abs(s) < 60) return rel.format(s, "second");
      if (Math.abs(s) < 3600) return rel.format(Math.round(s / 60), "minute");
      if (Math.abs(s) < 86400) return rel.format(Math.round(s / 3600), "hour");
      return rel.format(Math.round(s / 86400), "day");
    },
  };
}

export function I18nProvider({ locale, timeZone, children }: { locale: Locale; timeZone: string; children: ReactNode }) {
  const value = useMemo<I18n>(
    () => ({
      locale,
      t: consoleStrings[locale],
      timeZone,
      fmt: makeFormats(locale, timeZone),
      stateTitle: (state) => (isOrderState(state) ? STATE_TITLES[state][locale] : state),
    }),
    [locale, timeZone],
  );
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(Context);
  if (!value) throw new Error("useI18n outside I18nProvider");
  return value;
}

/** Sets the language cookie (a year) and reloads the server-rendered parts. */
export function storeLocale(locale: Locale): void {
  document.cookie = `locale=${locale}; path=/; max-age=${365 * 24 * 3600}; samesite=lax`;
}
