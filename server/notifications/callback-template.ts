// Integrators' status callback URL templates: placeholders such as %uuid%
// and %status_code% are replaced by URL-encoded values of the order. The
// list is the original product's (chat bots put every one of them in their
// template and read the values back by name), plus %status_name% of ours.
import { internationalPhone } from "../orders/phone";
import { STATUS_NAMES, stateOfCode, type OrderState } from "../orders/states";
import { trackingUrlForUuid } from "../tracking/link";

/** Every placeholder with what it is filled with: the one list the code, /docs and docs/dispatch-api.md follow. */
export const CALLBACK_PLACEHOLDERS = [
  { name: "id", meaning: "the order's number (internal id)" },
  { name: "uuid", meaning: "the order's uuid (as returned on creation)" },
  { name: "status_code", meaning: "the new status code" },
  { name: "status_name", meaning: "the new status's name as order/status gives it (e.g. Сообщили время подъезда)" },
  { name: "street", meaning: "the pickup street or public place" },
  { name: "house", meaning: "the pickup house (empty when none was given)" },
  { name: "phonenum", meaning: "the passenger's phone in international form with the plus, e.g. +998919800555" },
  { name: "name", meaning: "the passenger's name (empty when unknown)" },
  { name: "remaining", meaning: "minutes until the car arrives (empty when unknown)" },
  { name: "code", meaning: "the driver's call sign (empty before a driver has the order)" },
  { name: "car_phone", meaning: "the driver's phone in international form with the plus" },
  { name: "car_firstname", meaning: "the driver's first name" },
  { name: "car_photo", meaning: "a URL of the car's photo; empty, as we keep no car photos" },
  { name: "brand", meaning: "the car's make" },
  { name: "model", meaning: "the car's model" },
  { name: "color", meaning: "the car's colour" },
  { name: "car_color", meaning: "the car's colour (the same as %color%)" },
  { name: "autonum", meaning: "the car's registration number" },
  { name: "amount", meaning: "the order's price in roubles, two decimals (empty when not priced)" },
  { name: "bonus", meaning: "the passenger's bonuses" },
  { name: "discount", meaning: "the discount in roubles (0: we give none)" },
  { name: "tracking_url", meaning: "the passenger's tracking link (docs/tracking.md), for a chat bot to forward" },
] as const;

export type CallbackPlaceholder = (typeof CALLBACK_PLACEHOLDERS)[number]["name"];
export type CallbackOrder = Record<CallbackPlaceholder, string>;

const KNOWN = new Set<string>(CALLBACK_PLACEHOLDERS.map((p) => p.name));
const PLACEHOLDER = /%([A-Za-z_]+)%/g;

/**
 * Fills the template. Our placeholders become URL-encoded values. Anything
 * else between percent signs is kept for the receiver to see as written, its
 * percent signs escaped: left raw, "%ca..." or "%de..." would be read by
 * every URL parser as an escaped byte and reach the receiver garbled.
 */
export function renderCallbackUrl(template: string, order: CallbackOrder): string {
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    KNOWN.has(name) ? encodeURIComponent(order[name as CallbackPlaceholder]) : `%25${name}%25`,
  );
}

/** A template must be an http(s) URL once filled. */
export function isValidCallbackTemplate(template: string): boolean {
  try {
    const url = new URL(template.replace(PLACEHOLDER, "x"));
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** What the placeholders are filled from: the order, its driver and car, the client's bonuses. */
export interface CallbackSource {
  id: number;
  uuid: string;
  street: string;
  house: string;
  phone: string;
  clientName: string;
  amount: number | null;
  arrivalAt: Date | null;
  clientBonus: number | null;
  driver: {
    callSign: string;
    firstName: string;
    phone: string;
    car: { brand: string; model: string; color: string; regNumber: string } | null;
  } | null;
}

/** The state a callback reports: the move's own, or for code 95 (two states) the one given. */
export function callbackFields(order: CallbackSource, statusCode: number, state?: OrderState): CallbackOrder {
  const remaining = order.arrivalAt ? Math.max(0, Math.ceil((order.arrivalAt.getTime() - Date.now()) / 60_000)) : null;
  const car = order.driver?.car;
  const named = state ?? stateOfCode(statusCode);
  return {
    id: String(order.id),
    uuid: order.uuid,
    status_code: String(statusCode),
    status_name: named ? STATUS_NAMES[named] : "",
    street: order.street,
    house: order.house,
    phonenum: internationalPhone(order.phone),
    name: order.clientName,
    remaining: remaining === null ? "" : String(remaining),
    code: order.driver?.callSign ?? "",
    car_phone: order.driver?.phone ? internationalPhone(order.driver.phone) : "",
    car_firstname: order.driver?.firstName ?? "",
    car_photo: "",
    brand: car?.brand ?? "",
    model: car?.model ?? "",
    color: car?.color ?? "",
    car_color: car?.color ?? "",
    autonum: car?.regNumber ?? "",
    amount: order.amount === null ? "" : (order.amount / 100).toFixed(2),
    bonus: String(order.clientBonus ?? 0),
    discount: "0",
    tracking_url: trackingUrlForUuid(order.uuid),
  };
}
