// The audit log: who did what to which object, and when. Every operator
// action of the console writes one row (the tRPC `audited` middleware for
// mutations, next-auth events for sign-in and sign-out). Secrets never reach
// the log: values under secret-looking keys are replaced before writing.
import type { DbOrTx } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { log } from "../log";

export interface AuditEntry {
  /** The operator; null for an anonymous attempt (a failed sign-in). */
  userId: number | null;
  /** What was done, e.g. "orders.move", "auth.signIn". */
  action: string;
  /** The kind of object acted on, e.g. "order", "user", "apiKey". */
  entity: string;
  entityId?: string | number | null;
  details?: Record<string, unknown>;
}

const SECRET_KEYS = /^(password|newPassword|passwordHash|key|keyHash|token|secret|apiKey)$/i;
const MAX_STRING = 500;
const MAX_DEPTH = 4;

/** A JSON-safe copy of `value` with secrets redacted and long strings cut. */
export function sanitizeForAudit(value: unknown, depth = 0): Prisma.InputJsonValue | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "boolean") return value;
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (depth >= MAX_DEPTH) return "[…]";
  if (Array.isArray(value)) return value.slice(0, 50).map((item) => sanitizeForAudit(item, depth + 1));
  if (typeof value === "object") {
    const out: Record<string, Prisma.InputJsonValue | null> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) continue;
      out[k] = SECRET_KEYS.test(k) ? "[redacted]" : sanitizeForAudit(v, depth + 1);
    }
    return out;
  }
  return String(value);
}

/** Writes one audit row. An audit failure is logged, never thrown at the operator. */
export async function writeAudit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  try {
    await db.auditLog.create({
      data: {
        userId: entry.userId,
        action: entry.action,
        entity: entry.entity,
        entityId: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
        details: (sanitizeForAudit(entry.details ?? {}) ?? {}),
      },
      select: { id: true },
    });
  } catch (error) {
    log.error("audit write failed", { action: entry.action, entity: entry.entity, error });
  }
}
