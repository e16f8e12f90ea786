// The passenger's SMS per event: the events, the placeholders a template may
// use, the built-in texts (used until an administrator writes a service's
// own), and the one renderer. Shared: the console's editor validates and
// previews with the same code the server sends with.
//
// A placeholder's value comes from the order (the driver's name, the car) and
// may hold anything a person typed: it is cleaned (control characters and
// line breaks removed, spaces collapsed) and cut to a length before it goes
// in, and the whole text is then fitted to SMS_MAX_PARTS parts, so no value
// can break the message's encoding or its length.
import { fitSms } from "./segments";

export const SMS_EVENTS = ["ASSIGNED", "ARRIVING", "WAITING", "FARE", "NO_CAR"] as const;
export type SmsEvent = (typeof SMS_EVENTS)[number];

export const SMS_LANGUAGES = ["ru", "en"] as const;
export type SmsLanguage = (typeof SMS_LANGUAGES)[number];

/** Every placeholder with the most characters its value keeps. */
export const SMS_PLACEHOLDERS = {
  car: 60,
  color: 20,
  brand: 20,
  model: 20,
  plate: 15,
  minutes: 4,
  driver: 30,
  driver_phone: 20,
  fare: 12,
  address: 80,
  service: 40,
  tracking_url: 200,
} as const;
export type SmsPlaceholder = keyof typeof SMS_PLACEHOLDERS;
export type SmsValues = Partial<Record<SmsPlaceholder, string>>;

export const DEFAULT_TEMPLATES: Record<SmsLanguage, Record<SmsEvent, string>> = {
  ru: {
    ASSIGNED: "К вам едет %car%, %plate%[, через %minutes% мин]. Водитель %driver%, %driver_phone%. %tracking_url%",
    ARRIVING: "%car%, %plate% подъедет[ через %minutes% мин]. %tracking_url%",
    WAITING: "Вас ожидает %car%, %plate%. %tracking_url%",
    FARE: "Поездка завершена. К оплате %fare% руб. Спасибо! %tracking_url%",
    NO_CAR: "К сожалению, мы не нашли свободную машину. Заказ отменён.",
  },
  en: {
    ASSIGNED: "A %car%, %plate% is coming[ in %minutes% min]. Driver %driver%, %driver_phone%. %tracking_url%",
    ARRIVING: "%car%, %plate% arrives[ in %minutes% min]. %tracking_url%",
    WAITING: "Your %car%, %plate% is waiting. %tracking_url%",
    FARE: "Trip complete. Fare: %fare% RUB. Thank you! %tracking_url%",
    NO_CAR: "Sorry, we found no free car. The order is cancelled.",
  },
};

/** The longest template an administrator may save. */
export const TEMPLATE_MAX_LENGTH = 480;

const PLACEHOLDER = /%([a-z_]+)%/g;
const OPTIONAL_CLAUSE = /\[([^[\]\n]*)\]/g;
// C0 and C1 controls but the line feed (kept in templates), DEL, and the Unicode line/paragraph separators.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;

function isPlaceholder(name: string): name is SmsPlaceholder {
  return Object.prototype.hasOwnProperty.call(SMS_PLACEHOLDERS, name);
}

/** A value as it goes into a text: one line, no control characters, at most its placeholder's length. */
export function cleanValue(name: SmsPlaceholder, value: string | null | undefined): string {
  const flat = (value ?? "").replace(CONTROLS, " ").replace(/\n/g, " ").replace(/\s+/g, " ").trim();
  const max = SMS_PLACEHOLDERS[name];
  return [...flat].length <= max ? flat : [...flat].slice(0, max).join("").trimEnd();
}

/** Why a template cannot be saved: unknown placeholders, control characters, empty or too long; null when it is fine. */
export function templateProblem(text: string): { kind: "empty" | "tooLong" | "control" | "unknown"; names?: string[] } | null {
  if (!text.trim()) return { kind: "empty" };
  if ([...text].length > TEMPLATE_MAX_LENGTH) return { kind: "tooLong" };
  CONTROLS.lastIndex = 0;
  if (CONTROLS.test(text.replace(/\r\n/g, "\n"))) return { kind: "control" };
  const unknown = [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((name) => !isPlaceholder(name));
  if (unknown.length) return { kind: "unknown", names: [...new Set(unknown)] };
  return null;
}

/**
 * The text of a message: the placeholders filled with cleaned values (an
 * unknown one is left as written), spaces tidied, fitted to `maxParts` parts.
 */
export function renderSms(template: string, values: SmsValues, maxParts: number): string {
  // An optional clause: text in square brackets that holds a placeholder is left out when one of its placeholders has
  // no value ("[, через %minutes% мин]" without an arrival time), and kept without its brackets otherwise. Brackets
  // around text without a placeholder are plain text.
  const clauses = template.replace(OPTIONAL_CLAUSE, (whole, inner: string) => {
    const names = [...inner.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter(isPlaceholder);
    if (names.length === 0) return whole;
    return names.every((name) => cleanValue(name, values[name]) !== "") ? inner : "";
  });
  const filled = clauses.replace(/\r\n/g, "\n").replace(PLACEHOLDER, (whole, name: string) => (isPlaceholder(name) ? cleanValue(name, values[name]) : whole));
  const tidy = filled
    .replace(CONTROLS, " ")
    .split("\n")
    .map((line) => line.replace(/[ \t]+/g, " ").replace(/ ([,.!?])/g, "$1").replace(/,([,.])/g, "$1").trim())
    .filter(Boolean)
    .join("\n");
  return fitSms(tidy, maxParts);
}
