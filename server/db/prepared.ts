// Prepared statements for the hottest reads (order information, a driver's
// position, a house): parsed and planned once per connection instead of on
// every request. On the embedded database planning is most of a small read's
// cost (the order information's three joins: 620–710 µs a query unprepared,
// 190–330 µs prepared, measured with PGlite 0.5).
//
//   PostgreSQL: pg's named statements (prepared on each pool connection at
//               its first use of the name).
//   PGlite:     one session: PREPARE once, then EXECUTE with the parameters
//               written as SQL literals. PGlite's query API has no named
//               statements, and EXECUTE, a utility statement, takes no bind
//               parameters; the literals are quoted below (strings doubled
//               quotes, numbers finite), which is exact while
//               standard_conforming_strings is on (checked once; off, the
//               plain query is used).
import type { PGlite } from "@electric-sql/pglite";
import { connectionOf, rawQuery, type DbOrTx } from "../db";

export type PreparedScalar = string | number | boolean | null;
/** Arrays go as bind parameters on PostgreSQL; on PGlite a statement with one runs unprepared (EXECUTE takes literals only). */
export type PreparedParam = PreparedScalar | readonly PreparedScalar[];

export interface PreparedStatement {
  /** unique among the process's statements: [a-z_]+ */
  name: string;
  sql: string;
}

/** A value as an SQL literal, for EXECUTE. */
export function sqlLiteral(value: PreparedScalar): string {
  if (value === null) return "NULL";
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
    return String(value);
  }
  if (value.includes("\u0000")) throw new RangeError("a string with a NUL character");
  return `'${value.replace(/'/g, "''")}'`;
}

export function executeSql(name: string, params: readonly PreparedScalar[]): string {
  return params.length ? `EXECUTE ${name}(${params.map(sqlLiteral).join(", ")})` : `EXECUTE ${name}`;
}

type PgliteState = { literalsSafe: Promise<boolean>; statements: Map<string, Promise<void>> };
const states = new WeakMap<PGlite, PgliteState>();

function pgliteState(pglite: PGlite): PgliteState {
  let state = states.get(pglite);
  if (!state) {
    const literalsSafe = pglite.query<{ standard_conforming_strings: string }>("SHOW standard_conforming_strings").then((r) => r.rows[0]?.standard_conforming_strings === "on");
    state = { literalsSafe, statements: new Map() };
    states.set(pglite, state);
  }
  return state;
}

/** Prepares the statement in PGlite's session once; false when literals would not be exact. */
export async function prepareOnPglite(pglite: PGlite, statement: PreparedStatement): Promise<boolean> {
  const state = pgliteState(pglite);
  if (!(await state.literalsSafe)) return false;
  let prepared = state.statements.get(statement.name);
  if (!prepared) {
    prepared = pglite
      .exec(`PREPARE ${statement.name} AS ${statement.sql}`)
      .then(() => undefined)
      .catch((error: unknown) => {
        // prepared already (another module copy in this process did it)
        if ((error as { code?: string }).code === "42P05") return;
        state.statements.delete(statement.name);
        throw error;
      });
    state.statements.set(statement.name, prepared);
  }
  await prepared;
  return true;
}

/** Runs a prepared statement on the process's connection; inside a transaction, as a plain query of it. */
export async function preparedQuery<T>(db: DbOrTx, statement: PreparedStatement, params: readonly PreparedParam[]): Promise<T[]> {
  const conn = connectionOf(db);
  if (!conn) return rawQuery(db)<T>(statement.sql, [...params]);
  if (conn.pool) return (await conn.pool.query({ name: statement.name, text: statement.sql, values: [...params] })).rows as T[];
  const pglite = conn.pglite!;
  const scalars = params.every((p): p is PreparedScalar => !Array.isArray(p));
  if (!scalars || !(await prepareOnPglite(pglite, statement))) return conn.query<T>(statement.sql, [...params]);
  return (await pglite.query<T>(executeSql(statement.name, params))).rows;
}
