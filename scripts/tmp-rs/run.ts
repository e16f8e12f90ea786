import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../../server/generated/prisma/client";
import { runReport } from "../../server/reports/run";
import type { ReportKind } from "../../server/reports/query";
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
const kinds = (process.argv[2] ?? "orders,waits,money,drivers,dispatch").split(",") as ReportKind[];
for (const kind of kinds) {
  const t: number[] = [];
  let out = "";
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const r = await runReport(prisma, kind, { period: "month", date: "2026-10-15", cityId: 1 }, { roles: ["ADMIN"] });
    t.push(Math.round(performance.now() - t0));
    out = JSON.stringify(r.data, (_k, v) => (typeof v === "bigint" ? v.toString() : v));
  }
  console.log(kind, t.join(" "), process.env.SHOW ? out.slice(0, 3000) : out.length);
}
await prisma.$disconnect();
await pool.end();
