// Console sessions that can be revoked. Each user has a session epoch
// (app_user.session_epoch); a session's token carries the epoch it began in
// (server/auth/next-auth.ts), and server/console/session.ts refuses a
// session whose epoch is no longer the user's, on every call (tRPC, pages,
// live streams). Bumping the epoch signs the user out everywhere: sign-out,
// "sign out everywhere", a password reset, a role change and disabling do it.
// Open live streams end at once through the event bus (every instance).
import type { DbOrTx } from "../db";
import { sqlQuery } from "../db/sql";
import { publish } from "../events/bus";

/** The Prisma update that ends a user's sessions, to merge into another update of the same row. */
export const NEW_SESSION_EPOCH = { sessionEpoch: { increment: 1 } } as const;

/**
 * Ends every session of the user, when `fromEpoch` (the epoch of the session
 * asking) is still current: a cookie already revoked cannot sign the user
 * out again and again.
 */
export async function revokeUserSessions(db: DbOrTx, userId: number, fromEpoch: number): Promise<void> {
  const rows = await sqlQuery<{ id: number }>(db, `UPDATE app_user SET session_epoch = session_epoch + 1 WHERE id = $1::int AND session_epoch = $2::int RETURNING id`, [userId, fromEpoch]);
  if (rows.length > 0) announceRevokedSessions(userId);
}

/** Tells open streams of the user, on every instance, to end. */
export function announceRevokedSessions(userId: number): void {
  publish({ type: "user.sessionsRevoked", userId });
}
