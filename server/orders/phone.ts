// Phone numbers of every country, read with libphonenumber-js (Google's
// numbering plans, maintained) and stored in E.164 ("+998919800555"), the
// passenger's identity for the blacklist, their history and their bonuses.
// Numbers written without a country code are read in DEFAULT_COUNTRY.
//
// Clients send what people type: "8 916 123-45-67", "+7 (916) 1234567",
// "998919800555" (E.164 without the plus), "8 029 123 45 67" (a Belarusian
// number dialled at home, not a Russian one). Each keeps its own country.
import { parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from "libphonenumber-js/max";
import { config } from "../config";

export { formatPhone, internationalPhone } from "../../shared/phone-format";

/**
 * Countries whose people dial national numbers with a leading 8 (the former
 * USSR's trunk prefix): a number that is no number of DEFAULT_COUNTRY is tried
 * in these, in this order, so that "8 029 ..." is Belarus and "8 701 ..." Kazakhstan.
 */
const TRUNK_8_COUNTRIES: readonly CountryCode[] = ["RU", "KZ", "BY", "UZ", "KG", "TJ", "TM", "AZ", "AM", "GE", "MD", "UA", "LT", "LV"];

function valid(number: PhoneNumber | undefined): string | undefined {
  return number?.isValid() ? number.number : undefined;
}

/**
 * The phone in E.164, or undefined when it is no phone number. A number no
 * numbering plan knows yet, but written with its country code, is kept as
 * written (a new range must not lock a passenger out).
 */
export function normalizePhone(raw: string, defaultCountry: CountryCode = config().DEFAULT_COUNTRY): string | undefined {
  const text = raw.trim();
  if (!/^\+?[\d\s().-]{5,40}$/.test(text) && !/^00\d/.test(text)) return undefined;
  const digits = text.replace(/\D/g, "");
  if (digits.length < 5 || digits.length > 15 + 2) return undefined;
  const international = text.startsWith("+") ? `+${digits}` : text.startsWith("00") ? `+${digits.slice(2)}` : undefined;
  if (international) {
    const parsed = parsePhoneNumberFromString(international);
    return valid(parsed) ?? (parsed?.isPossible() ? parsed.number : undefined);
  }
  // Written at home: the default country first, then E.164 without its plus,
  // then the neighbours that dial with 8.
  const candidates = [
    () => parsePhoneNumberFromString(digits, defaultCountry),
    () => parsePhoneNumberFromString(`+${digits}`),
    ...TRUNK_8_COUNTRIES.filter((c) => c !== defaultCountry).map((c) => () => parsePhoneNumberFromString(digits, c)),
  ];
  for (const candidate of candidates) {
    const found = valid(candidate());
    if (found) return found;
  }
  const possible = parsePhoneNumberFromString(digits, defaultCountry);
  if (possible?.isPossible()) return possible.number;
  const asE164 = parsePhoneNumberFromString(`+${digits}`);
  return asE164?.isPossible() ? asE164.number : undefined;
}
