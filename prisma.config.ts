// Prisma CLI configuration (Prisma 6.19, JavaScript engine: no native engine
// download is possible on our machines). The adapter decides where the CLI's
// migrate commands go: PostgreSQL when DATABASE_URL is set, else the
// embedded PGlite data directory.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "prisma/config";

const databaseUrl = process.env.DATABASE_URL;
// The schema needs a value to resolve; the adapter ignores it.
process.env.DATABASE_URL ??= "postgresql://embedded@localhost/embedded";

export default defineConfig({
  schema: path.join("prisma", "schema.prisma"),
  experimental: { adapter: true },
  engine: "js",
  async adapter() {
    if (databaseUrl) {
      const { PrismaPg } = await import("pg-migrate-adapter");
      return new PrismaPg({ connectionString: databaseUrl });
    }
    const { PGlite } = await import("@electric-sql/pglite");
    const { PrismaPGlite } = await import("pglite-prisma-adapter");
    // `migrate diff` needs no database: give it a throwaway in-memory one.
    if (process.env.PRISMA_NO_DATABASE) return new PrismaPGlite(new PGlite());
    const dataDir = path.resolve(process.env.DATA_DIR ?? "data", "pglite");
    mkdirSync(dataDir, { recursive: true });
    return new PrismaPGlite(new PGlite(dataDir));
  },
});
