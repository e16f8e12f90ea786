"use client";
// The app's language: the driver's choice, remembered on the device
// (device.ts); formats of money, distances and times in that language.
import { createContext, useCallback, useContext, useMemo, useSyncExternalStore, type ReactNode } from "react";
import { driverStrings, type DriverLocale, type DriverStrings } from "@/shared/i18n/driver";
import { storedLocale, storeLocale } from "./device";

interface DriverI18n {
  locale: DriverLocale;
  t: DriverStrings;
  setLocale: (locale: DriverLocale) => void;
  money: (roubles: number | null | undefined) => string;
  km: (metres: number) => string;
  time: (iso: string | null) => string;
}

const Context = createContext<DriverI18n | null>(null);

// The language lives in localStorage: read through an external store so the
// server's render (no storage) and the phone's agree (Russian first, then the choice).
const listeners = new Set<() => void>();
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function DriverI18nProvider({ children }: { children: ReactNode }) {
  const locale = useSyncExternalStore<DriverLocale>(subscribe, storedLocale, () => "ru");
  const setLocale = useCallback((next: DriverLocale) => {
    storeLocale(next);
    for (const l of listeners) l();
  }, []);
  const value = useMemo<DriverI18n>(() => {
    const tag = locale === "ru" ? "ru-RU" : "en-GB";
    const money = new Intl.NumberFormat(tag, { style: "currency", currency: "RUB", currencyDisplay: "narrowSymbol", maximumFractionDigits: 2, minimumFractionDigits: 0 });
    const num = new Intl.NumberFormat(tag, { maximumFractionDigits: 1 });
    const time = new Intl.DateTimeFormat(tag, { hour: "2-digit", minute: "2-digit" });
    return {
      locale,
      t: driverStrings[locale],
      setLocale,
      money: (r) => (r === null || r === undefined ? "—" : money.format(r)),
      km: (m) => num.format(m / 1000),
      time: (iso) => (iso ? time.format(new Date(iso)) : "—"),
    };
  }, [locale, setLocale]);
  return (
    <Context.Provider value={value}>
      <div className="drv-root" lang={locale}>
        {children}
      </div>
    </Context.Provider>
  );
}

export function useDriverI18n(): DriverI18n {
  const value = useContext(Context);
  if (!value) throw new Error("useDriverI18n outside DriverI18nProvider");
  return value;
}
