// Phone numbers as stored: digits only, Russian numbers as 7XXXXXXXXXX
// (clients send 8XXXXXXXXXX, +7 XXX XXX-XX-XX or E.164).
export function normalizePhone(raw: string): string | undefined {
  const digits = raw.replace(/\D/g, "");
  if (digits.length === 11 && digits.startsWith("8")) return `7${digits.slice(1)}`;
  if (digits.length === 10 && digits.startsWith("9")) return `7${digits}`;
  if (digits.length >= 10 && digits.length <= 15) return digits;
  return undefined;
}

/** 7XXXXXXXXXX as +7 (XXX) XXX-XX-XX for people. */
export function formatPhone(phone: string): string {
  const m = /^7(\d{3})(\d{3})(\d{2})(\d{2})$/.exec(phone);
  return m ? `+7 (${m[1]}) ${m[2]}-${m[3]}-${m[4]}` : `+${phone}`;
}

/** A stored phone in international form with the plus, as integrators get it ("+998919800555"). */
export function internationalPhone(stored: string): string {
  if (stored === "" || stored.startsWith("+")) return stored;
  return /^\d+$/.test(stored) ? `+${stored}` : stored;
}
