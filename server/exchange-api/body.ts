// Reading exchange-style requests: a JSON object body (whatever the content
// type says), the session token, and zod validation whose first problem
// becomes NoRequiredFieldSet (absent) or TypeError (present, wrong type).
import type { z } from "zod";
import { ExchangeError } from "../errors";
import { holdsUnstorableText } from "../http/nul";
import type { ApiRequest } from "../http/types";
import { badRequest } from "../exchange/errors";

export type JsonObject = Record<string, unknown>;

/** The body as a JSON object; undefined when there is none. BadRequest when it is not JSON or not an object. */
export function readJsonBody(request: ApiRequest): JsonObject | undefined {
  const text = request.body.toString("utf8").trim();
  if (text === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest("the body is not valid JSON");
  }
  if (parsed === null) return undefined;
  if (typeof parsed !== "object" || Array.isArray(parsed)) throw badRequest("the body must be a JSON object");
  if (holdsUnstorableText(parsed)) throw badRequest("the body holds a NUL character (\\u0000) or an unpaired surrogate, which no field may contain");
  return parsed as JsonObject;
}

export function isEmptyObject(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0);
}

/**
 * The token of a call, wherever a participant may reasonably put it (the
 * reference names only meta.token): `meta.token` in a JSON body (also on a
 * GET), `?token=` in the query string, or `Authorization: Bearer <token>`.
 * When several are given they must agree (else Unauthorized).
 */
export function tokenOf(request: ApiRequest, body: JsonObject | undefined): string | undefined {
  const header = request.headers.authorization?.trim();
  const fromHeader = header && header.length > 7 && header.slice(0, 7).toLowerCase() === "bearer " ? header.slice(7).trim() : undefined;
  const meta = body?.meta;
  const fromBody = meta && typeof meta === "object" && !Array.isArray(meta) ? (meta as JsonObject).token : undefined;
  if (fromBody !== undefined && typeof fromBody !== "string") throw new ExchangeError("UNAUTHORIZED", { reason: "meta.token must be a string" });
  const queried = request.query.getAll("token");
  if (queried.length > 1 && queried.some((t) => t !== queried[0])) {
    throw new ExchangeError("UNAUTHORIZED", { reason: "the query string carries different tokens" });
  }
  const found = [fromHeader, fromBody, queried[0]].filter((t): t is string => typeof t === "string" && t !== "");
  if (found.some((t) => t !== found[0])) {
    throw new ExchangeError("UNAUTHORIZED", { reason: "the Authorization header, meta.token and ?token= carry different tokens" });
  }
  return found[0];
}

/** A GET's body, read only for its meta.token: a body that is not a JSON object is ignored. */
export function optionalJsonBody(request: ApiRequest): JsonObject | undefined {
  try {
    return readJsonBody(request);
  } catch {
    return undefined;
  }
}

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

function pathText(prefix: string, path: ReadonlyArray<PropertyKey>): string {
  let out = prefix;
  for (const key of path) out += typeof key === "number" ? `[${key}]` : `${out ? "." : ""}${String(key)}`;
  return out;
}

/** Validates `value` (found at `prefix` of the body); the first problem is thrown. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, prefix: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path ?? [];
  const parameter = pathText(prefix, path);
  if (valueAt(value, path) === undefined) throw new ExchangeError("MISSING_PARAMETER", { parameter });
  const expected = issue?.message ?? "another type";
  throw new ExchangeError("BAD_PARAMETER", { parameter, expected, reason: `${parameter}: expected ${expected}` });
}
