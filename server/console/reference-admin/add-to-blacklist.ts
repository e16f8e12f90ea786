// Adding a phone to the blacklist.
import type { Db } from "../../db";
import { ValidationError } from "../../errors";
import { normalizePhone } from "../../orders/phone";
import { conflict } from "./common";

export async function addToBlacklist(db: Db, input: { phone: string; reason: string }) {
  const phone = normalizePhone(input.phone);
  if (!phone) throw new ValidationError("BAD_PARAMETER", { parameter: "phone", expected: "a phone number of 10 to 15 digits" });
  const exists = await db.blacklistedPhone.findUnique({ where: { phone }, select: { phone: true } });
  if (exists) throw conflict("phoneListed", { phone });
  await db.blacklistedPhone.create({ data: { phone, reason: input.reason.trim() }, select: { phone: true } });
  return { id: phone, phone };
}
