// What the app keeps on the phone besides the offline queue: the driver app
// key (localStorage: it must outlive the browser's session, and only this
// origin's pages read it), the driver's language, and a one-time note for
// the activation page (why the app sent the driver back there).
import type { DriverLocale } from "@/shared/i18n/driver";

const KEY = "taxi-driver.key";
const LOCALE = "taxi-driver.locale";
const NOTE = "taxi-driver.note";

export type ActivationNote = "badKey" | "signedOut";

export function storedKey(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function storeKey(key: string): void {
  localStorage.setItem(KEY, key);
}

export function forgetKey(note: ActivationNote): void {
  localStorage.removeItem(KEY);
  sessionStorage.setItem(NOTE, note);
}

export function takeNote(): ActivationNote | null {
  const note = sessionStorage.getItem(NOTE);
  sessionStorage.removeItem(NOTE);
  return note === "badKey" || note === "signedOut" ? note : null;
}

export function storedLocale(): DriverLocale {
  try {
    const saved = localStorage.getItem(LOCALE);
    if (saved === "ru" || saved === "en") return saved;
    return navigator.language.toLowerCase().startsWith("en") ? "en" : "ru";
  } catch {
    return "ru";
  }
}

export function storeLocale(locale: DriverLocale): void {
  localStorage.setItem(LOCALE, locale);
}
