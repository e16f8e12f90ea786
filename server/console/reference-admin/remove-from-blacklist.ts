// Removing a phone from the blacklist.
import type { Db } from "../../db";
import { ValidationError } from "../../errors";
import { normalizePhone } from "../../orders/phone";

export async function removeFromBlacklist(db: Db, input: { phone: string }) {
  const phone = normalizePhone(input.phone) ?? input.phone;
  const removed = await db.blacklistedPhone.deleteMany({ where: { phone } });
  if (removed.count === 0) throw new ValidationError("NOT_FOUND", { what: "Blacklisted phone", id: phone });
  return { id: phone, phone };
}
