// Integrators' status callback URL templates: placeholders such as %uuid%
// and %status_code% are replaced by URL-encoded values of the order.
export interface CallbackOrder {
  id: string;
  uuid: string;
  status_code: string;
  street: string;
  house: string;
  phonenum: string;
  name: string;
  remaining: string;
  car_phone: string;
  car_firstname: string;
  brand: string;
  model: string;
  color: string;
  car_color: string;
  autonum: string;
  amount: string;
  bonus: string;
  discount: string;
}

export const CALLBACK_PLACEHOLDERS = [
  "id", "uuid", "status_code", "street", "house", "phonenum", "name", "remaining", "car_phone",
  "car_firstname", "brand", "model", "color", "car_color", "autonum", "amount", "bonus", "discount",
] as const satisfies ReadonlyArray<keyof CallbackOrder>;

export function renderCallbackUrl(template: string, order: CallbackOrder): string {
  return template.replace(/%([a-z_]+)%/g, (whole, name: string) =>
    (CALLBACK_PLACEHOLDERS as readonly string[]).includes(name) ? encodeURIComponent(order[name as keyof CallbackOrder]) : whole,
  );
}

/** A template must be an http(s) URL once filled. */
export function isValidCallbackTemplate(template: string): boolean {
  try {
    const url = new URL(template.replace(/%[a-z_]+%/g, "x"));
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
  driver: { firstName: string; phone: string; car: { brand: string; model: string; color: string; regNumber: string } | null } | null;
}

export function callbackFields(order: CallbackSource, statusCode: number): CallbackOrder {
  const remaining = order.arrivalAt ? Math.max(0, Math.round((order.arrivalAt.getTime() - Date.now()) / 60_000)) : null;
  const car = order.driver?.car;
  return {
    id: String(order.id),
    uuid: order.uuid,
    status_code: String(statusCode),
    street: order.street,
    house: order.house,
    phonenum: order.phone,
    name: order.clientName,
    remaining: remaining === null ? "" : String(remaining),
    car_phone: order.driver?.phone ?? "",
    car_firstname: order.driver?.firstName ?? "",
    brand: car?.brand ?? "",
    model: car?.model ?? "",
    color: car?.color ?? "",
    car_color: car?.color ?? "",
    autonum: car?.regNumber ?? "",
    amount: order.amount === null ? "" : (order.amount / 100).toFixed(2),
    bonus: String(order.clientBonus ?? 0),
    discount: "0",
  };
}
