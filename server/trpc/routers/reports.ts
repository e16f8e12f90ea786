// The Reports section (docs/reports.md): five read-only reports for
// managers, administrators and accountants, and the shift start hour an
// administrator sets. Thin: the services are in server/reports/.
import { z } from "zod";
import { adminProcedure, createTRPCRouter, roleProcedure } from "../init";
import { reportQuerySchema } from "../../reports/query";
import { REPORT_ROLES, runReport } from "../../reports/run";
import { setShiftStartHour } from "../../reports/settings";
import { reportChoices } from "../../reports/choices";

const reportProcedure = roleProcedure(...REPORT_ROLES);

export const reportsRouter = createTRPCRouter({
  orders: reportProcedure.input(reportQuerySchema).query(({ ctx, input }) => runReport(ctx.db, "orders", input, ctx.user)),
  waits: reportProcedure.input(reportQuerySchema).query(({ ctx, input }) => runReport(ctx.db, "waits", input, ctx.user)),
  money: reportProcedure.input(reportQuerySchema).query(({ ctx, input }) => runReport(ctx.db, "money", input, ctx.user)),
  drivers: reportProcedure.input(reportQuerySchema).query(({ ctx, input }) => runReport(ctx.db, "drivers", input, ctx.user)),
  dispatch: reportProcedure.input(reportQuerySchema).query(({ ctx, input }) => runReport(ctx.db, "dispatch", input, ctx.user)),
  /** The filters' choices: cities, services, regions, drivers, API keys (names only). */
  choices: reportProcedure.query(({ ctx }) => reportChoices(ctx.db)),
  setShiftStart: adminProcedure
    .meta({ entity: "setting" })
    .input(z.object({ hour: z.number().int().min(0).max(23) }))
    .mutation(({ ctx, input }) => setShiftStartHour(ctx.db, input.hour)),
});
