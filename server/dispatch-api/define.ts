// One dispatch API operation: its path, method, input and reply schemas and
// the call into a domain service. The router, the OpenAPI document and the
// tests all read these definitions.
import type { z } from "zod";
import type { ApiKeyIdentity } from "../auth/api-keys";
import type { Db } from "../db";
import type { IdempotencyScope, IdempotentWrite } from "../idempotency/store";
import type { ErrorCode } from "../errors";

export interface DispatchContext {
  db: Db;
  apiKey: ApiKeyIdentity | null;
  language: "ru" | "en";
  remoteAddress: string;
  /** The request's Idempotency-Key (creating operations, marked `idempotent`, only). */
  idempotency?: IdempotencyScope;
  /** Headers the operation adds to its reply (Idempotent-Replayed). */
  replyHeaders: Record<string, string>;
}

export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  method: "GET" | "POST";
  /** Path below /api, e.g. "order/pre_cost". */
  path: string;
  summary: string;
  /** false only for version and changeset. */
  auth: boolean;
  input: I;
  output: O;
  /** Put the reply next to `status` instead of under `response` (changeset). */
  topLevel?: boolean;
  /**
   * A creating POST (it makes an order or a payment): accepts an
   * Idempotency-Key header, as every creating operation of the API must
   * (docs/operations.md, "Retrying requests"). The router reads the key,
   * answers a key already used with its stored reply (or refuses it for other
   * parameters) and settles races; the operation hands `keyWrite(ctx, reply)`
   * to its service, which writes the key with its effect, in one transaction.
   */
  idempotent?: boolean;
  /** Operations sharing a method and path are told apart by a parameter. */
  when?: (params: Map<string, string>) => boolean;
  /** The operation's own error codes, beyond those of every operation (documented per operation in the OpenAPI document). */
  errors?: ErrorCode[];
  /** Alternative forms of the input (the OpenAPI document's oneOf): each with its required fields and the fields it takes. */
  forms?: Array<{ title: string; required: string[]; fields: string[] }>;
  handle: (input: z.output<I>, ctx: DispatchContext) => Promise<z.input<O>>;
}

/**
 * What a creating operation's service writes beside its effect when the
 * request carried an Idempotency-Key (undefined when it did not): the key,
 * and the reply built from what the work created, with the same function the
 * operation answers with, so that a replay is the first reply byte for byte.
 */
export function keyWrite<Created>(ctx: DispatchContext, reply: (created: Created) => unknown): IdempotentWrite<Created> | undefined {
  return ctx.idempotency && { ...ctx.idempotency, replyStatus: 200, replyBody: reply };
}

export function defineOperation<I extends z.ZodType, O extends z.ZodType>(op: Operation<I, O>): Operation<I, O> {
  return op;
}
