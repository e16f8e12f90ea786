// The one pattern of an order's uuid as clients send it (any letter case;
// we store and compare lower case). Any version: the original product's
// clients hold uuids of every kind.
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID_PATTERN.test(text);
}
