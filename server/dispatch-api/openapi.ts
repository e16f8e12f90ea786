// The OpenAPI 3.1 document of the dispatch API, generated from the same zod
// schemas the router validates with (inputs as the client sends them,
// replies as the operations produce them).
import { z } from "zod";
import { ERROR_CODES } from "../errors";
import { API_VERSION } from "./changeset";
import type { Operation } from "./define";
import { OPERATIONS } from "./operations";

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  delete json.$schema;
  return json;
}

const errorReply: JsonSchema = {
  type: "object",
  required: ["status", "error"],
  properties: {
    status: { const: "ERROR" },
    error: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: { type: "string", enum: [...ERROR_CODES] },
        message: { type: "string", description: "Readable text in the configured language" },
      },
    },
  },
};

function successReply(op: Operation): JsonSchema {
  const output = schemaOf(op.output, "output");
  if (op.topLevel) {
    const props = (output.properties ?? {}) as JsonSchema;
    return { type: "object", required: ["status", ...Object.keys(props)], properties: { status: { const: "DONE" }, ...props } };
  }
  return { type: "object", required: ["status", "response"], properties: { status: { const: "DONE" }, response: output } };
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

export function buildOpenApiDocument(): JsonSchema {
  const groups = new Map<string, Operation[]>();
  for (const op of OPERATIONS) {
    const key = `${op.method} ${op.path}`;
    groups.set(key, [...(groups.get(key) ?? []), op]);
  }
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const ops of groups.values()) {
    const first = ops[0]!;
    const { properties, required } = parametersOf(ops);
    const keyParam: JsonSchema[] = first.auth
      ? [{ name: "api_key", in: "query", required: first.method === "GET", schema: { type: "string" }, description: "The integration client's key (query string or form body)" }]
      : [];
    const params = Object.entries(properties).map(([name, schema]) => ({ name, in: "query", required: required.has(name), schema, ...(schema.description ? { description: schema.description } : {}) }));
    const replies = ops.map(successReply);
    const operation: JsonSchema = {
      operationId: `${first.method.toLowerCase()}_${first.path.replace(/\W+/g, "_")}`,
      summary: ops.map((op) => op.summary).join("; or "),
      ...(first.auth ? { security: [{ apiKey: [] }] } : {}),
      responses: {
        "200": {
          description: "DONE with the reply, or ERROR with a stable code (always HTTP 200)",
          content: { "application/json": { schema: { oneOf: [...replies, errorReply] } } },
        },
        "404": { description: "No such path", content: { "application/json": { schema: errorReply } } },
      },
    };
    if (first.method === "GET") operation.parameters = [...keyParam, ...params];
    else {
      operation.requestBody = {
        content: {
          "application/x-www-form-urlencoded": {
            schema: { type: "object", properties: { ...(first.auth ? { api_key: { type: "string" } } : {}), ...properties }, required: [...required] },
          },
        },
      };
      operation.parameters = keyParam.map((p) => ({ ...p, required: false }));
    }
    const path = `/api/${first.path}`;
    paths[path] = { ...(paths[path] ?? {}), [first.method.toLowerCase()]: operation };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Taxi dispatch API",
      version: API_VERSION,
      description:
        "Orders, price estimates with guaranteed-price tokens, statuses, reference data, bonuses and balances. Parameters go in the query string or the form body; an empty string counts as absent; unknown parameters are ignored. Every reply is HTTP 200: {status: DONE, response} or {status: ERROR, error: {code, message}}.",
    },
    servers: [{ url: "/" }],
    components: { securitySchemes: { apiKey: { type: "apiKey", in: "query", name: "api_key" } } },
    paths,
  };
}
