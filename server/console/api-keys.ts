// Integration API keys as administrators see them: never the key itself
// (only its prefix), its status callback template, use and revocation.
import type { Db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { ValidationError } from "../errors";
import { checkCallbackTemplate, setKeyCallback } from "../notifications/integrator-callback";
import { issueApiKey, revokeApiKey } from "../auth/api-keys";

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

/**
 * Issues a key; the key itself (and the secret that signs its callbacks, when
 * it has a callback) is in the reply once and nowhere else.
 */
export async function issueConsoleApiKey(db: Db, input: { name: string; callbackTemplate?: string | null }) {
  const template = checkCallbackTemplate(input.callbackTemplate, "callbackTemplate");
  const issued = await issueApiKey(db, { name: input.name.trim() });
  const callback = template ? await setKeyCallback(db, { apiKeyId: issued.id, url: template, rotate: true, parameter: "callbackTemplate" }) : null;
  return { id: issued.id, name: issued.name, prefix: issued.prefix, key: issued.key, callbackSecret: callback?.secret ?? null };
}

export async function revokeConsoleApiKey(db: Db, id: number) {
  const key = await db.apiKey.findUnique({ where: { id }, select: { id: true, revokedAt: true } });
  if (!key) throw new ValidationError("NOT_FOUND", { what: "API key", id });
  if (!key.revokedAt) await revokeApiKey(db, id);
  return { id };
}

/**
 * An administrator sets or removes a key's callback. A key that gets a URL and
 * has no secret yet (or `rotateSecret`) gets a new one, shown once in the
 * reply (`callbackSecret`); a key that keeps its secret answers null there.
 */
export async function setCallbackTemplate(db: Db, input: { apiKeyId: number; callbackTemplate: string | null; rotateSecret?: boolean }) {
  // An unknown key is NOT_FOUND (setKeyCallback checks), not Prisma's "record to update not found" (a 500). Keys are never deleted.
  const { secret } = await setKeyCallback(db, { apiKeyId: input.apiKeyId, url: input.callbackTemplate, rotate: input.rotateSecret ?? false, parameter: "callbackTemplate" });
  const row = await db.apiKey.findUniqueOrThrow({ where: { id: input.apiKeyId }, select: apiKeyRowSelect });
  return { ...row, callbackSecret: secret };
}
