// The OpenAPI 3.1 document of the dispatch API, generated from the same zod
// schemas the router validates with (inputs as the client sends them,
// replies as the operations produce them): the descriptions, examples and
// formats are written once, at the schemas (`.describe()`, `.meta()`).
// Checked by `@redocly/cli lint` with its recommended rules in the tests
// (tests/unit/openapi-lint.test.ts).
import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "../errors";
import { API_VERSION } from "./changeset";
import type { Operation } from "./define";
import { OPERATIONS } from "./operations";
import { MAX_IDEMPOTENCY_KEY_LENGTH } from "../idempotency/key";

type JsonSchema = Record<string, unknown>;

/** Replaces the wire type of query/form values ("12" is read as 12) with the type they stand for. */
function wireTypes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(wireTypes);
  if (!node || typeof node !== "object") return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node as JsonSchema)) out[k] = wireTypes(v);
  const wire = out["x-wire-type"];
  if (typeof wire === "string") {
    out.type = wire;
    delete out.pattern;
    delete out.maxLength;
    delete out["x-wire-type"];
  }
  return out;
}

function schemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  delete json.$schema;
  return wireTypes(json) as JsonSchema;
}

// ---------------------------------------------------------------- errors

/** What each code means for a retry: the client's decision table. */
const RETRY: Partial<Record<ErrorCode, string>> = {
  RATE_LIMITED: "yes, after the seconds of the Retry-After header",
  INTERNAL: "yes for reads and for calls that are idempotent (an Idempotency-Key, a txn_id, a status move, a price token: TOKEN_USED then says it was made); otherwise read first",
  CONFLICT: "after reading the current state again",
  NOT_APPLIED: "yes, as it is, after the seconds of the Retry-After header: nothing was done (the database was unavailable)",
};

const COMMON_ERRORS: ErrorCode[] = ["BAD_REQUEST", "BODY_TOO_LARGE", "METHOD_NOT_ALLOWED", "RATE_LIMITED", "NOT_APPLIED", "INTERNAL"];
const KEY_ERRORS: ErrorCode[] = ["MISSING_API_KEY", "BAD_API_KEY"];
const PARAMETER_ERRORS: ErrorCode[] = ["MISSING_PARAMETER", "BAD_PARAMETER"];

function errorsOf(ops: Operation[]): ErrorCode[] {
  const codes = new Set<ErrorCode>(COMMON_ERRORS);
  for (const op of ops) {
    if (op.auth) KEY_ERRORS.forEach((c) => codes.add(c));
    const input = schemaOf(op.input, "input");
    if (Object.keys((input.properties ?? {})).length) PARAMETER_ERRORS.forEach((c) => codes.add(c));
    op.errors?.forEach((c) => codes.add(c));
    if (op.idempotent) codes.add("IDEMPOTENCY_KEY_REUSED");
  }
  return ERROR_CODES.filter((c) => codes.has(c));
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const components = {
  Error: {
    type: "object",
    description: "Why a call failed: a stable code to act on, and a message for people",
    required: ["code", "message"],
    properties: {
      code: { type: "string", enum: [...ERROR_CODES], description: "A stable code (the operation's description lists its own, with which are safe to retry)", examples: ["BAD_PARAMETER"] },
      message: { type: "string", description: "Readable text in the configured LANGUAGE (ru by default), naming the parameter when one is at fault", examples: ["Parameter pre_order_time: expected YYYY-MM-DD HH:MM[:SS]"] },
    },
  },
  ErrorReply: {
    type: "object",
    description: "Every failure: HTTP 200 with status ERROR (real clients treat any non-2xx as a transport failure)",
    required: ["status", "error"],
    properties: { status: { type: "string", const: "ERROR", description: "ERROR: the call failed" }, error: ref("Error") },
  },
} satisfies Record<string, JsonSchema>;

// ---------------------------------------------------------------- operations

function responseOf(op: Operation): JsonSchema {
  const output = schemaOf(op.output, "output");
  return { ...(op.when ? { title: op.summary } : {}), ...output };
}

function successReply(ops: Operation[]): JsonSchema {
  const first = ops[0]!;
  if (first.topLevel) {
    const output = schemaOf(first.output, "output");
    const props = (output.properties ?? {}) as JsonSchema;
    return { type: "object", required: ["status", ...Object.keys(props)], properties: { status: { type: "string", const: "DONE", description: "DONE: the call succeeded" }, ...props } };
  }
  // Operations sharing a path (GET drivers with and without `code`): one reply whose response is one of theirs, each titled.
  const response = { description: "The reply", ...(ops.length === 1 ? responseOf(first) : { oneOf: ops.map(responseOf) }) };
  return { type: "object", required: ["status", "response"], properties: { status: { type: "string", const: "DONE", description: "DONE: the call succeeded" }, response } };
}

function parametersOf(ops: Operation[]): { properties: Record<string, JsonSchema>; required: Set<string> } {
  const properties: Record<string, JsonSchema> = {};
  const requiredEverywhere = new Set<string>();
  ops.forEach((op, i) => {
    const input = schemaOf(op.input, "input");
    const props = (input.properties ?? {}) as Record<string, JsonSchema>;
    Object.assign(properties, props);
    const required = new Set((input.required as string[] | undefined) ?? []);
    if (i === 0) required.forEach((r) => requiredEverywhere.add(r));
    else for (const r of [...requiredEverywhere]) if (!required.has(r)) requiredEverywhere.delete(r);
  });
  return { properties, required: requiredEverywhere };
}

const API_KEY_FIELD: JsonSchema = { type: "string", description: "The integration client's key (the query string or the form body; both places may carry it)", examples: ["tk_…"] };

/** The body's schema: one object, or the operation's forms as oneOf (each with its own required fields). */
function bodySchema(op: Operation, properties: Record<string, JsonSchema>, required: Set<string>): JsonSchema {
  const withKey = (props: Record<string, JsonSchema>) => (op.auth ? { api_key: API_KEY_FIELD, ...props } : props);
  if (!op.forms) return { type: "object", properties: withKey(properties), required: [...required] };
  const others = op.forms.flatMap((f) => f.required);
  return {
    oneOf: op.forms.map((form) => ({
      title: form.title,
      type: "object",
      required: form.required,
      properties: {
        ...withKey(Object.fromEntries(form.fields.filter((name) => properties[name]).map((name) => [name, properties[name]!]))),
        // the forms are told apart by their required fields: another form's that this one does not take must be absent
        ...Object.fromEntries(others.filter((name) => !form.fields.includes(name)).map((name) => [name, false])),
      },
    })),
  };
}

function errorTable(codes: ErrorCode[]): string {
  const rows = codes.map((c) => `| ${c} | ${RETRY[c] ?? "no: change the request or the state first"} |`);
  return ["| Error code | Safe to retry |", "|---|---|", ...rows].join("\n");
}

const RETRY_AFTER = {
  "Retry-After": { description: "With RATE_LIMITED and NOT_APPLIED: seconds to wait before calling again", schema: { type: "integer", minimum: 1 } },
};

// Creating operations (orders, payments: `idempotent` in define.ts) take an Idempotency-Key header (server/idempotency, docs/operations.md#retrying-requests).
function idempotencyKeyHeader(): JsonSchema {
  return {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    schema: { type: "string", minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH, pattern: "^[\\x21-\\x7e]+$" },
    description:
      "A unique key per request (a UUID), kept for IDEMPOTENCY_KEY_HOURS (24 h by default) per API key. A retry with the same key and parameters answers the first reply (header Idempotent-Replayed: true) and does nothing again; the same key with other parameters is refused with IDEMPOTENCY_KEY_REUSED; a retry while the first is in progress waits for it.",
  };
}

const REPLAYED_HEADER = {
  "Idempotent-Replayed": { description: "true when the reply repeats the stored reply of an earlier request with the same Idempotency-Key", schema: { type: "string", enum: ["true"] } },
};

// Every body form the router reads (server/dispatch-api/params.ts): the same fields in each.
const BODY_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data", "application/json"];

function operationOf(ops: Operation[], replyName: string): JsonSchema {
  const first = ops[0]!;
  const { properties, required } = parametersOf(ops);
  const errors = errorsOf(ops);
  const keyParam: JsonSchema[] = first.auth ? [{ name: "api_key", in: "query", required: first.method === "GET", schema: { type: "string" }, description: API_KEY_FIELD.description }] : [];
  const operation: JsonSchema = {
    operationId: `${first.method.toLowerCase()}_${first.path.replace(/\W+/g, "_")}`,
    summary: ops.map((op) => op.summary).join("; or ").slice(0, 200),
    description: `${ops.map((op) => op.summary).join(".\n\nOr: ")}.\n\n${errorTable(errors)}`,
    tags: [tagOf(first.path)],
    // the public operations need no key
    security: first.auth ? [{ apiKey: [] }] : [],
    "x-error-codes": errors.map((code) => ({ code, retry: RETRY[code] ?? "no" })),
    responses: {
      "200": {
        description: "DONE with the reply, or ERROR with a stable code (always HTTP 200)",
        headers: ops.some((op) => op.idempotent) ? { ...RETRY_AFTER, ...REPLAYED_HEADER } : RETRY_AFTER,
        content: { "application/json": { schema: { oneOf: [ref(replyName), ref("ErrorReply")] } } },
      },
      "404": { description: "No such path", content: { "application/json": { schema: ref("ErrorReply") } } },
    },
  };
  if (first.method === "GET") {
    operation.parameters = [
      ...keyParam,
      ...Object.entries(properties).map(([name, schema]) => ({ name, in: "query", required: required.has(name), schema, ...(schema.description ? { description: schema.description } : {}) })),
    ];
  } else {
    const schema = bodySchema(first, properties, required);
    operation.requestBody = {
      required: first.auth || Object.keys(properties).length > 0,
      description: "The parameters as form fields (the query string is read too). Every listed content type carries the same fields; a body that does not parse is BAD_REQUEST, never read as empty",
      content: Object.fromEntries(BODY_TYPES.map((type) => [type, { schema }])),
    };
    operation.parameters = [...keyParam.map((p) => ({ ...p, required: false })), ...(ops.some((op) => op.idempotent) ? [idempotencyKeyHeader()] : [])];
  }
  return operation;
}

function tagOf(path: string): string {
  if (path.startsWith("order") || path === "cancel_order") return "Orders";
  if (path.startsWith("callback")) return "Callbacks";
  if (path.includes("balance") || path.includes("bonus")) return "Balances and bonuses";
  if (path === "version" || path === "changeset") return "Version";
  return "Reference data";
}

const TAGS = [
  { name: "Orders", description: "Estimate, create, read, cancel, and move orders through their statuses" },
  { name: "Reference data", description: "Services, regions, rates, streets, drivers and extras" },
  { name: "Balances and bonuses", description: "A client's bonuses, drivers' and customers' balances" },
  { name: "Callbacks", description: "The calling key's own status callback: set, read, test; every callback signed (X-Callback-Signature)" },
  { name: "Version", description: "The API's version and its history (no key needed)" },
];

const DESCRIPTION = [
  "Orders, price estimates with guaranteed-price tokens, statuses, reference data, bonuses and balances, for call centres, chat bots and mobile back ends.",
  "",
  "Parameters go in the query string or the form body (both on POST); an empty string counts as absent; unknown parameters are ignored. Every reply is HTTP 200: `{status: DONE, response}` or `{status: ERROR, error: {code, message}}`; only an unknown path is 404.",
  "",
  "Times: the estimate's `pre_order_time_utc` is on UTC's clock, creation's `pre_order_time` and `time` on the clock of the order's city; each also takes ISO 8601 with an offset (`2030-01-15T10:00:00+03:00`, `...Z`), an exact instant. A time that cannot be read is refused (BAD_PARAMETER), never ignored. Replies give the reference's `YYYY-MM-DD HH:MM:SS` on the city's clock and, beside it, ISO 8601 with the offset (`start_time_iso`).",
  "",
  "The reference's own quirks are kept as it fixes them: the driver list's `lat`/`lon` and the estimate's `amount` are strings.",
  "",
  "Conventions, statuses, callbacks and their signature: /docs and docs/integrators.md.",
].join("\n");

export function buildOpenApiDocument(): JsonSchema {
  const groups = new Map<string, Operation[]>();
  for (const op of OPERATIONS) {
    const key = `${op.method} ${op.path}`;
    groups.set(key, [...(groups.get(key) ?? []), op]);
  }
  const schemas: Record<string, JsonSchema> = { ...components };
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const ops of groups.values()) {
    const first = ops[0]!;
    const replyName = `${first.method === "GET" ? "Get" : "Post"}${first.path.split(/\W+/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("")}Reply`;
    schemas[replyName] = successReply(ops);
    const path = `/api/${first.path}`;
    paths[path] = { ...(paths[path] ?? {}), [first.method.toLowerCase()]: operationOf(ops, replyName) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Taxi dispatch API",
      version: API_VERSION,
      description: DESCRIPTION,
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: "/", description: "This instance" }],
    tags: TAGS,
    components: { securitySchemes: { apiKey: { type: "apiKey", in: "query", name: "api_key", description: "The integration client's key, issued by an administrator in the console" } }, schemas },
    paths,
  };
}
