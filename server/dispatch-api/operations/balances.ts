// Client bonuses, driver balances and customer balances.
import { z } from "zod";
import { defineOperation, keyWrite, type DispatchContext } from "../define";
import { p } from "../params";
import { ValidationError } from "../../errors";
import { applyDriverPayment, driverBalance, type PaymentResult } from "../../balances/driver-balance";
import { applyCustomerPayment, customerBalance } from "../../balances/customer-balance";
import { kopecksToRoubles, roublesToKopecks } from "../../balances/money";
import { normalizePhone } from "../../orders/phone";
import { clientBonus } from "../../bonuses/client-bonus";
import type { Actor } from "../../actor";

const actorOf = (ctx: DispatchContext): Actor => ({ type: "API_KEY", id: ctx.apiKey ? String(ctx.apiKey.id) : null });
const amount = () =>
  p
    .float(-10_000_000, 10_000_000)
    .refine((n) => roublesToKopecks(n) !== 0, "a non-zero amount")
    .describe("Roubles, two decimals at most: positive adds, negative takes")
    .meta({ examples: [150.5] });
const balanceReply = z.object({ balance: z.number().describe("The balance after, roubles") });
/** A payment's reply: the balance it left (also what its Idempotency-Key keeps). */
const paymentReply = (result: PaymentResult) => ({ balance: kopecksToRoubles(result.balance) });

export const bonusCountOperation = defineOperation({
  method: "GET",
  path: "client/bonus/count",
  summary: "A client's bonus count by phone",
  auth: true,
  input: z.object({ phone: p.phone().describe("The client's phone, any form") }),
  output: z.object({ phone: z.string().describe("The phone as stored: E.164 with the plus"), bonus: z.number().int().describe("Bonuses (1 bonus = 1 rouble)") }),
  handle: async (input, ctx) => {
    const phone = normalizePhone(input.phone);
    if (!phone) throw new ValidationError("BAD_PARAMETER", { parameter: "phone", expected: "phone number" });
    // the phone as stored (E.164, with the plus), whatever form was asked for
    return { phone, bonus: await clientBonus(ctx.db, phone) };
  },
});

export const driverPaymentOperation = defineOperation({
  method: "POST",
  path: "driver/balance",
  summary: "Change a driver's balance; the same txn_id applies once",
  auth: true,
  idempotent: true,
  input: z.object({
    driver_code: p.string(50).describe("The driver's call sign").meta({ examples: ["101"] }),
    txn_id: p.string(64).describe("Your id of this payment: the same txn_id again applies nothing and answers the balance it left (so a retry is safe)"),
    amount: amount(),
    reason: p.string(500).optional().describe("Why, for the ledger"),
  }),
  errors: ["NOT_FOUND", "CONFLICT", "INSUFFICIENT_BALANCE"],
  output: balanceReply,
  handle: async (input, ctx) => {
    const result = await applyDriverPayment(ctx.db, {
      driverCode: input.driver_code,
      txnId: input.txn_id,
      amount: roublesToKopecks(input.amount),
      reason: input.reason ?? "dispatch API payment",
      actor: actorOf(ctx),
      idempotency: keyWrite(ctx, paymentReply),
    });
    return paymentReply(result);
  },
});

export const driverBalanceOperation = defineOperation({
  method: "GET",
  path: "driver/balance",
  summary: "A driver's balance",
  auth: true,
  input: z.object({ driver_code: p.string(50).describe("The driver's call sign").meta({ examples: ["101"] }) }),
  errors: ["NOT_FOUND"],
  output: z.object({
    balance: z.number().describe("Roubles"),
    firstname: z.string().describe("First name"),
    lastname: z.string().describe("Last name"),
    middlename: z.string().describe("Middle name"),
  }),
  handle: async (input, ctx) => {
    const driver = await driverBalance(ctx.db, input.driver_code);
    return { balance: kopecksToRoubles(driver.balance), firstname: driver.firstName, lastname: driver.lastName, middlename: driver.middleName };
  },
});

export const customerPaymentOperation = defineOperation({
  method: "POST",
  path: "customer/balance",
  summary: "Change a customer's balance (txn_id optional: makes it idempotent)",
  auth: true,
  idempotent: true,
  input: z.object({
    customer_id: p.natural().describe("The customer (counterparty)"),
    amount: amount(),
    txn_id: p.string(64).optional().describe("Your id of this payment: makes it idempotent (the same txn_id applies once)"),
    reason: p.string(500).optional().describe("Why, for the ledger"),
  }),
  errors: ["NOT_FOUND", "CONFLICT", "INSUFFICIENT_BALANCE"],
  output: balanceReply,
  handle: async (input, ctx) => {
    const result = await applyCustomerPayment(ctx.db, {
      customerId: input.customer_id,
      amount: roublesToKopecks(input.amount),
      txnId: input.txn_id,
      reason: input.reason ?? "dispatch API payment",
      actor: actorOf(ctx),
      idempotency: keyWrite(ctx, paymentReply),
    });
    return paymentReply(result);
  },
});

export const customerBalanceOperation = defineOperation({
  method: "GET",
  path: "customer/balance",
  summary: "A customer's balance",
  auth: true,
  input: z.object({ customer_id: p.natural().describe("The customer (counterparty)") }),
  errors: ["NOT_FOUND"],
  output: z.object({ balance: z.number().describe("Roubles"), name: z.string().describe("The customer's name") }),
  handle: async (input, ctx) => {
    const customer = await customerBalance(ctx.db, input.customer_id);
    return { balance: kopecksToRoubles(customer.balance), name: customer.name };
  },
});
