import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../../server/generated/prisma/client";
import { resolveScope } from "../../server/reports/scope";
import { driversReport } from "../../server/reports/drivers-report";
import { driversReport as old } from "../../server/reports/drivers-old";
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
const scope = await resolveScope(prisma, { period: "month", date: "2026-10-15", cityId: 1 });
const now = new Date();
for (let i = 0; i < 3; i++) {
  let t0 = performance.now();
  const a = JSON.stringify(await driversReport(prisma, scope, now), (_k, v) => (typeof v === "bigint" ? v.toString() : v));
  const ta = Math.round(performance.now() - t0);
  t0 = performance.now();
  const b = JSON.stringify(await old(prisma, scope, now), (_k, v) => (typeof v === "bigint" ? v.toString() : v));
  console.log("new", ta, "old", Math.round(performance.now() - t0), "equal", a === b);
}
await prisma.$disconnect();
await pool.end();
