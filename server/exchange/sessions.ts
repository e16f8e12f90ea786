// Client keys and sessions of the exchange's participants.
//
// A participant logs in with its client key (POST /session) from one of its
// registered servers; the session is bound to that server: the token is
// accepted only from the server's addresses (ExchangeServer.address). Tokens
// have no expiry. Only SHA-256 hashes of keys and tokens are stored (both are
// long random strings, so a fast hash is enough).
import { createHash, randomBytes } from "node:crypto";
import type { DbOrTx } from "../db";
import { rawQuery } from "../db/sql";
import { addressAllowed, addressEntries, normalizeAddress } from "./addresses";
import { forbidden, unauthorized } from "./errors";

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

export function generateClientKey(): string {
  return `xk_${randomBytes(24).toString("base64url")}`;
}

export function generateToken(): string {
  return `xt_${randomBytes(32).toString("base64url")}`;
}

/** Stores a client key (given, or generated) for a participant; the key is returned once. */
export async function issueClientKey(db: DbOrTx, participantId: number, key = generateClientKey()) {
  const row = await db.exchangeClientKey.create({
    data: { participantId, prefix: key.slice(0, 8), keyHash: hashSecret(key) },
    select: { id: true, prefix: true, createdAt: true },
  });
  return { ...row, key };
}

export async function revokeClientKey(db: DbOrTx, id: number): Promise<void> {
  await db.exchangeClientKey.update({ where: { id }, data: { revokedAt: new Date() }, select: { id: true } });
}

export interface ExchangeCaller {
  participantId: number;
  participantName: string;
  sessionId: number;
  serverId: number;
}

export interface OpenedSession {
  token: string;
  participantId: number;
  serverId: number;
}

/** POST /session: the key's participant, from one of its servers' addresses. */
export async function openSession(db: DbOrTx, key: string, remoteAddress: string): Promise<OpenedSession> {
  if (key.length === 0 || key.length > 200) throw unauthorized("unknown client key");
  const row = await db.exchangeClientKey.findUnique({
    where: { keyHash: hashSecret(key) },
    select: {
      revokedAt: true,
      participant: { select: { id: true, disabled: true, servers: { select: { id: true, address: true }, orderBy: { id: "asc" } } } },
    },
  });
  if (!row || row.revokedAt) throw unauthorized("unknown or revoked client key");
  if (row.participant.disabled) throw forbidden("the participant is disabled");
  let serverId: number | undefined;
  for (const server of row.participant.servers) {
    if (await addressAllowed(remoteAddress, addressEntries(server.address))) {
      serverId = server.id;
      break;
    }
  }
  if (serverId === undefined) {
    throw unauthorized(`no server of this participant is registered at ${normalizeAddress(remoteAddress)}`);
  }
  const token = generateToken();
  await db.exchangeSession.create({
    data: { participantId: row.participant.id, serverId, tokenHash: hashSecret(token), lastUsedAt: new Date() },
    select: { id: true },
  });
  return { token, participantId: row.participant.id, serverId };
}

/** Every other call: the token's session, used from its server's addresses. */
export async function authenticate(db: DbOrTx, token: string | undefined, remoteAddress: string): Promise<ExchangeCaller> {
  if (!token) throw unauthorized("the session token is missing (meta.token in the body, ?token= or Authorization: Bearer)");
  if (token.length > 200) throw unauthorized("unknown session token");
  // Every exchange call asks this: one raw round trip (docs/performance.md).
  const [row] = await rawQuery(db)<{ id: number; revoked: boolean; last_used_ms: number | null; server_id: number; address: string; participant_id: number; name: string; disabled: boolean }>(
    `SELECT x.id, x.revoked_at IS NOT NULL AS revoked, (EXTRACT(EPOCH FROM x.last_used_at) * 1000)::float8 AS last_used_ms,
            s.id AS server_id, s.address, p.id AS participant_id, p.name, p.disabled
       FROM exchange_session x JOIN exchange_server s ON s.id = x.server_id JOIN exchange_participant p ON p.id = x.participant_id
      WHERE x.token_hash = $1`,
    [hashSecret(token)],
  );
  const session = row && {
    id: Number(row.id),
    revokedAt: row.revoked ? true : null,
    lastUsedAt: row.last_used_ms === null ? null : new Date(Number(row.last_used_ms)),
    server: { id: Number(row.server_id), address: row.address },
    participant: { id: Number(row.participant_id), name: row.name, disabled: row.disabled },
  };
  if (!session || session.revokedAt) throw unauthorized("unknown or revoked session token");
  if (!(await addressAllowed(remoteAddress, addressEntries(session.server.address)))) {
    throw unauthorized(`the session token is not valid from ${normalizeAddress(remoteAddress)}`);
  }
  if (session.participant.disabled) throw forbidden("the participant is disabled");
  if (!session.lastUsedAt || Date.now() - session.lastUsedAt.getTime() > 60_000) {
    await db.exchangeSession.update({ where: { id: session.id }, data: { lastUsedAt: new Date() }, select: { id: true } });
  }
  return {
    participantId: session.participant.id,
    participantName: session.participant.name,
    sessionId: session.id,
    serverId: session.server.id,
  };
}

export async function revokeSessions(db: DbOrTx, participantId: number): Promise<number> {
  const result = await db.exchangeSession.updateMany({ where: { participantId, revokedAt: null }, data: { revokedAt: new Date() } });
  return result.count;
}
