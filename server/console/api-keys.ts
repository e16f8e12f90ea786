// Integration API keys as administrators see them: never the key itself
// (only its prefix), its status callback template, use and revocation.
import type { Db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { ValidationError } from "../errors";
import { isValidCallbackTemplate } from "../notifications/callback-template";
import { forgetApiKeys, issueApiKey, revokeApiKey } from "../auth/api-keys";

export const apiKeyRowSelect = {
  id: true,
  name: true,
  prefix: true,
  callbackTemplate: true,
  createdAt: true,
  revokedAt: true,
  lastUsedAt: true,
  _count: { select: { orders: true } },
} satisfies Prisma.ApiKeySelect;

export async function listApiKeys(db: Db) {
  return db.apiKey.findMany({ orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { id: "desc" }], select: apiKeyRowSelect });
}

function checkTemplate(template: string | null | undefined): string | null {
  const value = template?.trim() || null;
  if (value && !isValidCallbackTemplate(value)) throw new ValidationError("BAD_PARAMETER", { parameter: "callbackTemplate", expected: "http(s) URL" });
  return value;
}

/** Issues a key; the key itself is in the reply once and nowhere else. */
export async function issueConsoleApiKey(db: Db, input: { name: string; callbackTemplate?: string | null }) {
  const issued = await issueApiKey(db, { name: input.name.trim(), callbackTemplate: checkTemplate(input.callbackTemplate) });
  return { id: issued.id, name: issued.name, prefix: issued.prefix, key: issued.key };
}

export async function revokeConsoleApiKey(db: Db, id: number) {
  const key = await db.apiKey.findUnique({ where: { id }, select: { id: true, revokedAt: true } });
  if (!key) throw new ValidationError("NOT_FOUND", { what: "API key", id });
  if (!key.revokedAt) await revokeApiKey(db, id);
  return { id };
}

export async function setCallbackTemplate(db: Db, input: { apiKeyId: number; callbackTemplate: string | null }) {
  // An unknown key is NOT_FOUND, not Prisma's "record to update not found" (a 500). Keys are never deleted.
  if (!(await db.apiKey.findUnique({ where: { id: input.apiKeyId }, select: { id: true } }))) throw new ValidationError("NOT_FOUND", { what: "API key", id: input.apiKeyId });
  const row = await db.apiKey.update({
    where: { id: input.apiKeyId },
    data: { callbackTemplate: checkTemplate(input.callbackTemplate) },
    select: apiKeyRowSelect,
  });
  forgetApiKeys();
  return row;
}
