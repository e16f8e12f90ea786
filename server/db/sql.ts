// The one door for SQL written by hand. Data modules run their statements
// through these (and preparedQuery for the hot reads); a lint rule forbids
// $queryRawUnsafe, $executeRawUnsafe, $queryRaw, $executeRaw and
// connection().query anywhere else. In a transaction the statement runs on
// the transaction's connection; on the process's client it takes the raw
// driver (no Prisma round trip: the hot paths).
import { connectionOf, rawQuery, type DbOrTx, type Tx } from "../db";

export { rawQuery, type RawQuery } from "../db";
export { preparedQuery, type PreparedParam, type PreparedStatement } from "./prepared";

/** Rows of a statement with $1.. parameters. */
export function sqlQuery<T = Record<string, unknown>>(db: DbOrTx, text: string, params: readonly unknown[] = []): Promise<T[]> {
  return rawQuery(db)<T>(text, [...params]);
}

/** A statement whose rows nobody reads (a lock, an update without RETURNING). */
export async function sqlExecute(db: DbOrTx, text: string, params: readonly unknown[] = []): Promise<void> {
  const conn = connectionOf(db);
  if (conn) {
    await conn.query(text, [...params]);
    return;
  }
  await (db as Tx).$executeRawUnsafe(text, ...params);
}

/**
 * In a transaction of long legitimate work (the demo seed, an OSM import):
 * no statement or idle-in-transaction timeout for the rest of it (the pool's
 * defaults, server/db/pool.ts, are for requests).
 */
export async function liftTimeouts(tx: Tx): Promise<void> {
  await tx.$executeRawUnsafe("SET LOCAL statement_timeout = 0");
  await tx.$executeRawUnsafe("SET LOCAL idle_in_transaction_session_timeout = 0");
}
