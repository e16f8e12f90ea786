// Balances for accountants (and administrators): totals, accounts, ledgers,
// and credits or debits with a reason. A thin adapter over
// server/console/balances.ts; the payment itself is the balance services'.
import { z } from "zod";
import { createTRPCRouter, roleProcedure } from "../init";
import { MAX_PAYMENT_KOPECKS } from "../../balances/money";
import { adjustBalance, balanceTotals, customerLedger, driverLedger, listCustomerAccounts, listDriverAccounts } from "../../console/balances";

const accountantProcedure = roleProcedure("ACCOUNTANT", "ADMIN");
const id = z.number().int().positive();

const accountsInput = z.object({
  q: z.string().trim().max(100).optional(),
  negative: z.boolean().optional(),
  cityId: id.optional(),
  cursor: id.nullish(),
  limit: z.number().int().min(10).max(500).default(100),
});

const ledgerInput = z.object({ id, cursor: id.nullish(), limit: z.number().int().min(10).max(200).default(50) });

export const balancesRouter = createTRPCRouter({
  totals: accountantProcedure.query(({ ctx }) => balanceTotals(ctx.db)),

  drivers: accountantProcedure.input(accountsInput).query(({ ctx, input }) => listDriverAccounts(ctx.db, input)),

  customers: accountantProcedure.input(accountsInput).query(({ ctx, input }) => listCustomerAccounts(ctx.db, input)),

  driverLedger: accountantProcedure.input(ledgerInput).query(({ ctx, input }) => driverLedger(ctx.db, input)),

  customerLedger: accountantProcedure.input(ledgerInput).query(({ ctx, input }) => customerLedger(ctx.db, input)),

  /** A credit or a debit; `txnId` comes from the form (generated when it opened), so a repeated submit applies once. */
  adjust: accountantProcedure
    .meta({ entity: "balance" })
    .input(
      z.object({
        account: z.enum(["driver", "customer"]),
        id,
        amount: z.number().int().min(1).max(MAX_PAYMENT_KOPECKS),
        direction: z.enum(["credit", "debit"]),
        reason: z.string().trim().min(1).max(500),
        txnId: z.string().trim().regex(/^[A-Za-z0-9-]{8,64}$/),
      }),
    )
    .mutation(({ ctx, input }) => adjustBalance(ctx.db, { type: "USER", id: String(ctx.user.id) }, input)),
});
