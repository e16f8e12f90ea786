// Prepared statements on PGlite run as EXECUTE with the parameters written as
// literals (server/db/prepared.ts): every value must come back exactly as
// given, and no value can end the literal early.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { executeSql, prepareOnPglite, sqlLiteral } from "@/server/db/prepared";

let pglite: PGlite;
const ECHO = { name: "test_echo", sql: "SELECT $1::text AS text, $2::int AS number, $3::boolean AS flag" };

beforeAll(async () => {
  pglite = new PGlite();
  await pglite.exec("CREATE TABLE canary (id int); INSERT INTO canary VALUES (1);");
});

afterAll(async () => {
  await pglite.close();
});

describe("prepared statements on PGlite", () => {
  it("prepares once, also when asked concurrently", async () => {
    const results = await Promise.all([prepareOnPglite(pglite, ECHO), prepareOnPglite(pglite, ECHO), prepareOnPglite(pglite, ECHO)]);
    expect(results).toEqual([true, true, true]);
    const statements = await pglite.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = 'test_echo'");
    expect(statements.rows[0]!.n).toBe(1);
  });

  const strings = [
    "",
    "O'Neil",
    "''",
    "\\",
    "\\'",
    "x'); DROP TABLE canary; --",
    "x'::text, 1, true); DROP TABLE canary; --",
    "ул. Ленина, ё",
    "тест 🚕 emoji",
    "$1 $$ $tag$",
    "line\nbreak\ttab",
  ];
  for (const text of strings) {
    it(`returns ${JSON.stringify(text)} exactly`, async () => {
      const rows = (await pglite.query<{ text: string; number: number; flag: boolean }>(executeSql(ECHO.name, [text, -42, false]))).rows;
      expect(rows).toEqual([{ text, number: -42, flag: false }]);
    });
  }

  it("leaves the database alone whatever the strings were", async () => {
    expect((await pglite.query<{ id: number }>("SELECT id FROM canary")).rows).toEqual([{ id: 1 }]);
  });

  it("writes NULL, and refuses what has no exact literal", () => {
    expect(sqlLiteral(null)).toBe("NULL");
    expect(() => sqlLiteral(Number.NaN)).toThrow(RangeError);
    expect(() => sqlLiteral(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => sqlLiteral("a\u0000b")).toThrow(RangeError);
  });
});
