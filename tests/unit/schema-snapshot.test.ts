// The schema and the migrations agree: prisma/schema.prisma must equal the
// snapshot the newest migration was made from (npm run db:migration writes
// both). A schema edited without a migration fails here.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const prisma = path.resolve(import.meta.dirname, "../../prisma");

describe("prisma/schema.prisma", () => {
  it("equals the newest migration's schema.snapshot.prisma", () => {
    const migrations = readdirSync(path.join(prisma, "migrations"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    const newest = migrations.at(-1);
    expect(newest, "a migration").toBeDefined();
    const snapshot = readFileSync(path.join(prisma, "migrations", newest!, "schema.snapshot.prisma"), "utf8");
    const schema = readFileSync(path.join(prisma, "schema.prisma"), "utf8");
    expect(schema, `schema.prisma differs from ${newest}/schema.snapshot.prisma: write a migration (npm run db:migration -- <name>)`).toBe(snapshot);
  });
});
