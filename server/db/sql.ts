// The one door for SQL written by hand. Data modules run their statements
// through these (and preparedQuery for the hot reads); a lint rule forbids
// $queryRawUnsafe, $executeRawUnsafe, $queryRaw, $executeRaw and
// connection().query anywhere else. In a transaction the statement runs on
// the transaction's connection; on the process's client it takes the raw
// driver (no Prisma round trip: the hot paths).
import { connection, rawQuery, type DbOrTx, type Tx } from "../db";

export { rawQuery, type RawQuery } from "../db";
export { preparedQuery, type PreparedParam, type PreparedStatement } from "./prepared";

/** Rows of a statement with $1.. parameters. */
export function sqlQuery<T = Record<string, unknown>>(db: DbOrTx, text: string, params: readonly unknown[] = []): Promise<T[]> {
  return rawQuery(db)<T>(text, [...params]);
}

/** A statement whose rows nobody reads (a lock, an update without RETURNING). */
export async function sqlExecute(db: DbOrTx, text: string, params: readonly unknown[] = []): Promise<void> {
  const conn = connection();
  if (db === conn.prisma) {
    await conn.query(text, [...params]);
    return;
  }
  await (db as Tx).$executeRawUnsafe(text, ...params);
}
