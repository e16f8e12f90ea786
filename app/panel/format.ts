// Formats of the panel's server-rendered pages: money in the participant's
// currency (minor units in, e.g. kopecks), dates and times in the exchange's
// time zone, percentages from basis points.
import type { Locale } from "./strings";

export interface PanelFormats {
  money: (minor: number | null | undefined) => string;
  /** With an explicit sign: +1 000 ₽ / −50 ₽. */
  signed: (minor: number) => string;
  dateTime: (at: Date | string | null | undefined) => string;
  date: (at: Date | string | null | undefined) => string;
  ago: (at: Date | null | undefined) => string;
  percent: (basisPoints: number) => string;
  number: (value: number) => string;
}

export function makePanelFormats(locale: Locale, timeZone: string, currency: string): PanelFormats {
  const tag = locale === "ru" ? "ru-RU" : "en-GB";
  let money: Intl.NumberFormat;
  try {
    money = new Intl.NumberFormat(tag, { style: "currency", currency, currencyDisplay: "narrowSymbol", minimumFractionDigits: 2, maximumFractionDigits: 2 });
  } catch {
    money = new Intl.NumberFormat(tag, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }
  const dateTime = new Intl.DateTimeFormat(tag, { timeZone, day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit" });
  const date = new Intl.DateTimeFormat(tag, { timeZone, day: "2-digit", month: "long", year: "numeric" });
  const rel = new Intl.RelativeTimeFormat(tag, { numeric: "auto" });
  const num = new Intl.NumberFormat(tag, { maximumFractionDigits: 2 });
  const toDate = (at: Date | string | null | undefined) => (at === null || at === undefined ? null : at instanceof Date ? at : new Date(at));
  return {
    money: (minor) => (minor === null || minor === undefined ? "—" : money.format(minor / 100)),
    signed: (minor) => (minor > 0 ? "+" : minor < 0 ? "−" : "") + money.format(Math.abs(minor) / 100),
    dateTime: (at) => {
      const d = toDate(at);
      return d && !Number.isNaN(d.getTime()) ? dateTime.format(d) : "—";
    },
    date: (at) => {
      const d = toDate(at);
      return d && !Number.isNaN(d.getTime()) ? date.format(d) : "—";
    },
    ago: (at) => {
      if (!at) return "—";
      const s = Math.round((at.getTime() - Date.now()) / 1000);
      if (Math.abs(s) < 60) return rel.format(s, "second");
      if (Math.abs(s) < 3600) return rel.format(Math.round(s / 60), "minute");
      if (Math.abs(s) < 86400) return rel.format(Math.round(s / 3600), "hour");
      return rel.format(Math.round(s / 86400), "day");
    },
    percent: (bp) => `${num.format(bp / 100)} %`,
    number: (value) => num.format(value),
  };
}
