// `npm run db:migration -- <name>`: writes a new migration from the change of
// prisma/schema.prisma since the last migration. Each migration keeps the
// schema it was made from (schema.snapshot.prisma), so no database and no
// shadow database is needed (Prisma's `migrate dev` cannot run here).
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const name = (process.argv[2] ?? "").trim().replace(/[^a-z0-9_]+/gi, "_").toLowerCase();
if (!name) {
  console.error("usage: npm run db:migration -- <name>");
  process.exit(2);
}
const dir = path.resolve("prisma", "migrations");
const previous = readdirSync(dir).filter((d) => existsSync(path.join(dir, d, "schema.snapshot.prisma"))).sort().at(-1);
const from = previous ? ["--from-schema-datamodel", path.join(dir, previous, "schema.snapshot.prisma")] : ["--from-empty"];
const sql = execFileSync("npx", ["prisma", "migrate", "diff", ...from, "--to-schema-datamodel", "prisma/schema.prisma", "--script"], {
  env: { ...process.env, PRISMA_NO_DATABASE: "1" },
  encoding: "utf8",
});
if (!sql.trim() || /This is an empty migration/.test(sql)) {
  console.log("The schema has not changed since the last migration.");
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const target = path.join(dir, `${stamp}_${name}`);
mkdirSync(target);
writeFileSync(path.join(target, "migration.sql"), sql);
copyFileSync("prisma/schema.prisma", path.join(target, "schema.snapshot.prisma"));
console.log(`Wrote ${path.relative(process.cwd(), target)}/migration.sql`);
