// Showing stored phones (E.164, or digits only in rows older than E.164
// storage): to people in the number's own national format, to integrators in
// international form with the plus. Safe in the browser: the small metadata.
import { parsePhoneNumberFromString } from "libphonenumber-js/min";

/** A stored phone in international form with the plus, as integrators get it ("+998919800555"). */
export function internationalPhone(stored: string): string {
  if (stored === "" || stored.startsWith("+")) return stored;
  return /^\d+$/.test(stored) ? `+${stored}` : stored;
}

/** For people: the number in its own country's national format ("8 (916) 123-45-67", "91 980 05 55", "8 029 123-45-67"). */
export function formatPhone(stored: string): string {
  const parsed = parsePhoneNumberFromString(internationalPhone(stored));
  if (!parsed) return stored;
  return parsed.formatNational();
}

/**
 * A stored phone as a click-to-call link: "tel:+79161234567" (RFC 3966, one
 * leading plus, digits only), or null when nothing dialable is left. The one
 * place links are built: the stored phone may already carry its plus.
 */
export function telHref(stored: string | null | undefined): string | null {
  if (!stored) return null;
  const parsed = parsePhoneNumberFromString(internationalPhone(stored.trim()));
  if (parsed) return `tel:${parsed.number}`;
  const digits = stored.replace(/\D/g, "");
  return digits ? `tel:+${digits}` : null;
}
