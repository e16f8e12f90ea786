// How an SMS text travels: GSM-7 when every character is in the GSM 03.38
// default alphabet (an extension character such as € or [ takes two septets),
// UCS-2 otherwise (Cyrillic); and how a long text is split into the parts of
// a concatenated message. Shared: the console's template editor shows the
// count of parts, the SMPP sender splits with the same rule.
//
// Our own code rather than a library's: the SMPP client (the `smpp` package)
// encodes a part's bytes but neither counts nor splits, and its character
// test is server-only CommonJS; the table below is the standard's.

export type SmsEncoding = "GSM7" | "UCS2";

/** GSM 03.38 default alphabet (the escape 0x1B left out: it is not a character). */
const BASIC = new Set(
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà",
);
/** The extension table: each is sent as escape + character, two septets. */
const EXTENDED = new Set("\f^{}\\[~]|€");

/** Septets one character takes in GSM-7, or null when it has none. */
function septets(ch: string): number | null {
  if (BASIC.has(ch)) return 1;
  if (EXTENDED.has(ch)) return 2;
  return null;
}

export function encodingOf(text: string): SmsEncoding {
  for (const ch of text) if (septets(ch) === null) return "UCS2";
  return "GSM7";
}

/** Room of one message alone, and of each part of a concatenated one (the 6-byte UDH takes the rest). */
export const CAPACITY: Record<SmsEncoding, { single: number; part: number }> = {
  GSM7: { single: 160, part: 153 },
  UCS2: { single: 70, part: 67 },
};

/** Units a character takes: septets for GSM-7, UTF-16 code units for UCS-2 (a surrogate pair is two). */
function unitsOf(ch: string, encoding: SmsEncoding): number {
  return encoding === "GSM7" ? (septets(ch) ?? 1) : ch.length;
}

export function lengthIn(text: string, encoding: SmsEncoding = encodingOf(text)): number {
  let units = 0;
  for (const ch of text) units += unitsOf(ch, encoding);
  return units;
}

/**
 * The parts of a message: one when it fits alone, else parts of at most the
 * part capacity. Never splits a character: an escape pair or a surrogate pair
 * stays in one part.
 */
export function splitSms(text: string, encoding: SmsEncoding = encodingOf(text)): string[] {
  const { single, part } = CAPACITY[encoding];
  if (lengthIn(text, encoding) <= single) return [text];
  const parts: string[] = [];
  let current = "";
  let used = 0;
  for (const ch of text) {
    const units = unitsOf(ch, encoding);
    if (used + units > part) {
      parts.push(current);
      current = "";
      used = 0;
    }
    current += ch;
    used += units;
  }
  if (current) parts.push(current);
  return parts;
}

export interface SmsShape {
  encoding: SmsEncoding;
  length: number;
  parts: number;
}

export function shapeOf(text: string): SmsShape {
  const encoding = encodingOf(text);
  return { encoding, length: lengthIn(text, encoding), parts: splitSms(text, encoding).length };
}

/**
 * The longest start of `text` that fits in `maxParts` parts, cut on a
 * character and ended with an ellipsis when cut (three dots in GSM-7, where
 * "…" has no code).
 */
export function fitSms(text: string, maxParts: number): string {
  const encoding = encodingOf(text);
  const { single, part } = CAPACITY[encoding];
  const room = maxParts <= 1 ? single : part * maxParts;
  if (lengthIn(text, encoding) <= room) return text;
  const ellipsis = encoding === "GSM7" ? "..." : "…";
  const budget = room - lengthIn(ellipsis, encoding);
  let out = "";
  let used = 0;
  for (const ch of text) {
    const units = unitsOf(ch, encoding);
    if (used + units > budget) break;
    out += ch;
    used += units;
  }
  return `${out.trimEnd()}${ellipsis}`;
}
