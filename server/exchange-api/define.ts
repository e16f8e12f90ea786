// One exchange API operation: its method and path (":name" segments are
// path parameters), where its input comes from, the zod schemas of the input
// and of the whole reply body, and the call into the exchange's services.
// The router, the tests and docs/exchange.md follow these definitions.
import type { z } from "zod";
import type { Db } from "../db";
import type { ExchangeCaller } from "../exchange/sessions";

export interface ExchangeContext {
  db: Db;
  /** The authenticated participant (null for the operations without a token). */
  caller: ExchangeCaller | null;
  remoteAddress: string;
  /** Path parameters, e.g. {id} of drivers/:id. */
  params: Record<string, string>;
}

export interface ExchangeOperation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  method: "GET" | "POST";
  /** Path below /exchange, e.g. "order/take" or "drivers/:id". */
  path: string;
  summary: string;
  /** Whether the call needs a session token. */
  auth: boolean;
  /**
   * What the input schema validates: "data" — the body's `data` (no body or
   * no `data`: EmptyRequest); "criteria" — the body's `data` when it is an
   * object, else the body without `meta` (may be empty); "none" — nothing.
   */
  source: "data" | "criteria" | "none";
  input: I;
  output: O;
  handle: (input: z.output<I>, ctx: ExchangeContext) => Promise<z.input<O>>;
}

export function defineExchangeOperation<I extends z.ZodType, O extends z.ZodType>(op: ExchangeOperation<I, O>): ExchangeOperation<I, O> {
  return op;
}

export const EXCHANGE_API_VERSION = "1.0.0";
