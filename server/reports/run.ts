// One door to the reports for tRPC and the exports: the query made concrete,
// the report run, what the reader may see decided here (passengers' phones
// only for roles that handle them).
import type { DbOrTx } from "../db";
import { sqlExecute } from "../db/sql";
import type { UserRole } from "../generated/prisma/enums";
import { dispatchReport, type DispatchReport } from "./dispatch-report";
import { driversReport, type DriversReport } from "./drivers-report";
import { moneyReport, type MoneyReport } from "./money-report";
import { ordersReport, type OrdersReport } from "./orders-report";
import type { ReportKind, ReportQuery } from "./query";
import { resolveScope } from "./scope";
import { waitsReport, type WaitsReport } from "./waits-report";

/** Who may open the reports (tRPC, the exports, the console's navigation). */
export const REPORT_ROLES = ["MANAGER", "ADMIN", "ACCOUNTANT"] as const satisfies readonly UserRole[];
/** Who sees passengers' phone numbers in the reports (the roles that handle orders or administer). */
export const PHONE_ROLES: readonly UserRole[] = ["ADMIN", "DISPATCHER"];

export interface ReportMeta {
  from: Date;
  to: Date;
  timeZone: string;
  shiftStartHour: number;
  days: string[];
}

export interface ReportOf {
  orders: OrdersReport;
  waits: WaitsReport;
  money: MoneyReport;
  drivers: DriversReport;
  dispatch: DispatchReport;
}

/** work_mem of a report's statements (PostgreSQL's default, 4 MB, makes a month of a million orders' hashes and sorts spill to disk). */
export const REPORT_WORK_MEM = "64MB";

export async function runReport<K extends ReportKind>(db: DbOrTx, kind: K, query: ReportQuery, viewer: { roles: readonly UserRole[] }): Promise<{ meta: ReportMeta; data: ReportOf[K] }> {
  // Its own read-only transaction, so that the memory setting holds for its statements only (in a caller's, till its end).
  if ("$transaction" in db) {
    return db.$transaction(
      async (tx) => {
        await sqlExecute(tx, "SET TRANSACTION READ ONLY");
        return runReport(tx, kind, query, viewer);
      },
      { timeout: 120_000, maxWait: 10_000 },
    );
  }
  await sqlExecute(db, `SET LOCAL work_mem = '${REPORT_WORK_MEM}'`);
  const scope = await resolveScope(db, query);
  const { from, to, timeZone, shiftStartHour, days } = scope.period;
  const meta = { from, to, timeZone, shiftStartHour, days };
  const showPhones = viewer.roles.some((r) => PHONE_ROLES.includes(r));
  const run: { [P in ReportKind]: () => Promise<ReportOf[P]> } = {
    orders: () => ordersReport(db, scope),
    waits: () => waitsReport(db, scope, { showPhones }),
    money: () => moneyReport(db, scope),
    drivers: () => driversReport(db, scope),
    dispatch: () => dispatchReport(db, scope),
  };
  return { meta, data: await run[kind]() };
}
