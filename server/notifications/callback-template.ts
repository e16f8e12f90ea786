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
