// Money as operators type it and read it: roubles with a comma or a dot and
// spaces between thousands in, exact kopecks out; BigInt kopecks formatted
// for the locale without going through a float. The one parser and formatter
// of amounts people type and read, for the browser and the server alike.

/**
 * Kopecks of a rouble amount as typed ("1 500", "1500,5", "-20.05", "1 234 567,89"),
 * or null when it is not one. Signs are allowed only when `signed`.
 */
export function parseRoubles(text: string, options: { signed?: boolean } = {}): number | null {
  const clean = text.replace(/[\s\u00a0\u202f₽]/g, "").replace(/^(руб\.?|rub)|(руб\.?|rub)$/gi, "");
  const m = /^([+-]?)(\d{1,12})(?:[.,](\d{1,2}))?$/.exec(clean);
  if (!m) return null;
  const [, sign = "", whole = "0", fraction = ""] = m;
  if (sign && !options.signed) return null;
  const kopecks = Number(whole) * 100 + Number(fraction.padEnd(2, "0") || "0");
  if (!Number.isSafeInteger(kopecks)) return null;
  return sign === "-" ? -kopecks : kopecks;
}

/** Roubles of a kopeck amount for an input field ("1500", "1500,50"): the inverse of parseRoubles. */
export function kopecksToInput(kopecks: number | bigint | null | undefined, locale: "ru" | "en"): string {
  if (kopecks === null || kopecks === undefined) return "";
  const k = BigInt(kopecks);
  const negative = k < 0n;
  const abs = negative ? -k : k;
  const whole = abs / 100n;
  const fraction = abs % 100n;
  const sep = locale === "ru" ? "," : ".";
  return `${negative ? "-" : ""}${whole}${fraction === 0n ? "" : `${sep}${fraction.toString().padStart(2, "0")}`}`;
}

/** An exact decimal string of kopecks ("-1234.05"): what Intl formats without rounding through a float. */
export function kopecksDecimal(kopecks: number | bigint): `${number}` {
  const k = BigInt(kopecks);
  const negative = k < 0n;
  const abs = negative ? -k : k;
  return `${negative ? "-" : ""}${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}` as `${number}`;
}

const formats = new Map<string, Intl.NumberFormat>();

/**
 * Kopecks as money in the locale, exact (no float on the way): "1 234 567,89 ₽",
 * or with `wholeRoublesBare` "1 500 ₽" for a whole amount (the console's tables).
 */
export function formatKopecks(
  kopecks: number | bigint | null | undefined,
  locale: "ru" | "en",
  options: { currency?: string; wholeRoublesBare?: boolean } = {},
): string {
  if (kopecks === null || kopecks === undefined) return "—";
  const currency = options.currency ?? "RUB";
  const minimumFractionDigits = options.wholeRoublesBare ? 0 : 2;
  const key = `${locale}|${currency}|${minimumFractionDigits}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale === "ru" ? "ru-RU" : "en-GB", {
      style: "currency",
      currency,
      currencyDisplay: "narrowSymbol",
      minimumFractionDigits,
      maximumFractionDigits: 2,
    });
    formats.set(key, format);
  }
  // A fractional kopeck count (an average) cannot be exact anyway.
  if (typeof kopecks === "number" && !Number.isInteger(kopecks)) return format.format(kopecks / 100);
  return format.format(kopecksDecimal(kopecks));
}

/** BigInt (or number) kopecks as money in the locale, exact to the kopeck: "1 234 567,89 ₽". */
export function formatKopecksExact(kopecks: number | bigint | null | undefined, locale: "ru" | "en", currency = "RUB"): string {
  return formatKopecks(kopecks, locale, { currency });
}
