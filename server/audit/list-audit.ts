// The audit log as the administrator reads it: newest first, paged by id.
import type { Db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { escapeLike } from "../db/like";
import { afterCursor, rowsFor, toPage } from "../db/paging";

export const auditRowSelect = {
  id: true,
  action: true,
  entity: true,
  entityId: true,
  details: true,
  at: true,
  user: { select: { id: true, email: true, name: true } },
} satisfies Prisma.AuditLogSelect;

export interface ListAuditInput {
  cursor?: number | null;
  limit: number;
  userId?: number;
  entity?: string;
  entityId?: string;
  action?: string;
}

export async function listAudit(db: Db, input: ListAuditInput) {
  const where: Prisma.AuditLogWhereInput = {
    ...(input.userId !== undefined ? { userId: input.userId } : {}),
    ...(input.entity ? { entity: input.entity } : {}),
    ...(input.entityId ? { entityId: input.entityId } : {}),
    ...(input.action ? { action: { startsWith: escapeLike(input.action) } } : {}),
  };
  const rows = await db.auditLog.findMany({ where: afterCursor(where, input.cursor, "desc"), orderBy: { id: "desc" }, take: rowsFor(input), select: auditRowSelect });
  return toPage(rows, input.limit);
}
