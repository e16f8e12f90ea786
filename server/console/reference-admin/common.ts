// Helpers of the reference administration: changed fields for the audit row, conflicts, the city check.
import type { DbOrTx } from "../../db";
import { ValidationError } from "../../errors";

/** The names of the fields whose values differ (for the audit row). */
export function changedFields<T extends Record<string, unknown>>(before: T, after: Partial<T>): string[] {
  return Object.keys(after).filter((k) => {
    const a = before[k];
    const b = after[k];
    if (b === undefined) return false;
    return JSON.stringify(a, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) !== JSON.stringify(b);
  });
}

export function conflict(reasonKey: string, details: Record<string, string | number>): ValidationError {
  return new ValidationError("CONFLICT", { reason: reasonKey, reasonKey, ...details });
}

export async function requireCity(db: DbOrTx, cityId: number): Promise<void> {
  const city = await db.city.findUnique({ where: { id: cityId }, select: { id: true } });
  if (!city) throw new ValidationError("NOT_FOUND", { what: "City", id: cityId });
}
