/** The client's card of a phone (app/(console)/clients). */
export function clientCardHref(phone: string): string {
  return `/clients?phone=${encodeURIComponent(phone)}`;
}
