// GET /driver-app/v1/ledger: the driver's last ledger entries, for the
// balance screen of the driver's app (docs/driver-app.md).
import { z } from "zod";
import { recentLedger } from "../ledger";
import { defineDriverAppOperation, integerIn } from "./define";

export const ledgerOperation = defineDriverAppOperation({
  method: "GET",
  path: "ledger",
  summary: "The driver's last ledger entries (payments, commissions), newest first",
  auth: "driver",
  input: z.object({ limit: integerIn(1, 100).optional() }),
  output: z.object({
    entries: z.array(
      z.object({
        id: z.number().int(),
        kind: z.enum(["PAYMENT", "COMMISSION"]),
        amount: z.number(),
        balance_after: z.number(),
        comment: z.string(),
        order_id: z.number().int().nullable(),
        at: z.string(),
      }),
    ),
  }),
  handle: async (input, ctx) => {
    if (!ctx.driver) throw new Error("a driver operation ran without a driver");
    return { entries: await recentLedger(ctx.db, ctx.driver, input.limit ?? 20) };
  },
});
