// The phone blacklist.
import type { Db } from "../../db";
import { escapeLike } from "../../db/like";

export async function listBlacklist(db: Db, input: { q?: string }) {
  const digits = input.q?.replace(/\D/g, "") ?? "";
  return db.blacklistedPhone.findMany({
    where: digits ? { phone: { contains: escapeLike(digits) } } : {},
    orderBy: { createdAt: "desc" },
    take: 500,
    select: { phone: true, reason: true, createdAt: true },
  });
}
