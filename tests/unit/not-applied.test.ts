// Which failures are known to have changed nothing (server/errors.ts,
// isNotApplied): every protocol answers those NOT_APPLIED ("retry") and the
// rest INTERNAL ("maybe done"). The forms the drivers and Prisma raise, and
// their wrappings (causes, Prisma's meta, the adapters' kinds).
import { describe, expect, it } from "vitest";
import { DomainError, isNotApplied, knownError } from "@/server/errors";

const pgError = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("failures known not to have been applied", () => {
  it.each([
    ["connection failure 08006", pgError("08006")],
    ["cannot connect now 57P03", pgError("57P03", "the database system is starting up")],
    ["admin shutdown 57P01", pgError("57P01", "terminating connection due to administrator command")],
    ["too many connections 53300", pgError("53300", "sorry, too many clients already")],
    ["database closed to connections (55000 at connect)", pgError("55000", 'database "x" is not currently accepting connections')],
    ["serialization failure 40001", pgError("40001")],
    ["deadlock 40P01", pgError("40P01")],
    ["connection refused", pgError("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432")],
    ["pool checkout timeout", new Error("timeout exceeded when trying to connect")],
    ["Prisma P1001", Object.assign(new Error("Can't reach database server"), { code: "P1001" })],
    ["Prisma P2024", Object.assign(new Error("Timed out fetching a new connection from the connection pool"), { code: "P2024" })],
    ["wrapped in a cause", new Error("query failed", { cause: pgError("08001") })],
    ["an adapter's kind", Object.assign(new Error("adapter"), { cause: { kind: "DatabaseNotReachable" } })],
    ["Prisma's meta", Object.assign(new Error("raw query failed"), { code: "P2010", meta: { code: "57P01" } })],
    // Prisma 6's form of a raw statement that failed in an interactive transaction through a driver adapter
    // (a deadlock between two dispatchers moving drivers of one stand answered 500 until this was read).
    [
      "a raw statement's deadlock through a driver adapter",
      Object.assign(new Error("Raw query failed. Code: `40P01`. Message: `deadlock detected`"), {
        code: "P2010",
        meta: { driverAdapterError: Object.assign(new Error("deadlock detected"), { cause: { kind: "postgres", originalCode: "40P01", originalMessage: "deadlock detected" } }) },
      }),
    ],
  ])("%s: NOT_APPLIED", (_name, error) => {
    expect(isNotApplied(error)).toBe(true);
    expect(knownError(error)?.code).toBe("NOT_APPLIED");
  });

  it.each([
    ["a connection lost mid-statement (maybe committed)", new Error("Connection terminated unexpectedly")],
    ["an adapter's ConnectionClosed", Object.assign(new Error("adapter"), { cause: { kind: "ConnectionClosed" } })],
    ["a unique violation", pgError("23505", "duplicate key value violates unique constraint")],
    ["a programming error", new TypeError("x is undefined")],
    ["not an error", "boom"],
  ])("%s: unexpected (INTERNAL)", (_name, error) => {
    expect(isNotApplied(error)).toBe(false);
    expect(knownError(error)).toBeNull();
  });

  it("domain errors pass through as they are", () => {
    const error = new DomainError("TOKEN_USED");
    expect(knownError(error)).toBe(error);
  });
});
