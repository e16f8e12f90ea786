// One dispatch API operation: its path, method, input and reply schemas and
// the call into a domain service. The router, the OpenAPI document and the
// tests all read these definitions.
import type { z } from "zod";
import type { ApiKeyIdentity } from "../auth/api-keys";
import type { Db } from "../db";

export interface DispatchContext {
  db: Db;
  apiKey: ApiKeyIdentity | null;
  language: "ru" | "en";
  remoteAddress: string;
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
  /** Operations sharing a method and path are told apart by a parameter. */
  when?: (params: Map<string, string>) => boolean;
  handle: (input: z.output<I>, ctx: DispatchContext) => Promise<z.input<O>>;
}

export function defineOperation<I extends z.ZodType, O extends z.ZodType>(op: Operation<I, O>): Operation<I, O> {
  return op;
}
