// The dispatch API's OpenAPI document, built in-process from the operations'
// schemas (no server): `@redocly/cli lint` with its recommended rules passes
// with no error or warning (offline: no telemetry, no update check, no remote
// $ref), and the contract is described field by field. Before this change the
// lint failed (public operations without security, the drivers' two replies
// overlapping) and 120 of 121 parameters and fields had no description.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/server/dispatch-api/openapi";
import { OPERATIONS } from "@/server/dispatch-api/operations";
import { SCHEMA_FILE, generateClientTypes } from "../support/dispatch-api/generate";

type Node = Record<string, unknown>;
const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, Node>>; components: { schemas: Record<string, Node> } };

describe("the OpenAPI document", () => {
  it("passes redocly lint with the recommended rules, no error and no warning", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "openapi-"));
    const file = path.join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(doc));
    const bin = path.join(process.cwd(), "node_modules", ".bin", "redocly");
    const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
    const run = await promisify(execFile)(bin, ["lint", "--extends=recommended", "--format=stylish", file], { env, timeout: 60_000 }).then(
      (r) => ({ code: 0, out: `${r.stdout}${r.stderr}` }),
      (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, out: `${e.stdout ?? ""}${e.stderr ?? ""}` }),
    );
    expect(run.code, run.out).toBe(0);
    // the report after "validating" (before it the CLI may print a notice about the Node.js version running it)
    const report = run.out.slice(run.out.indexOf("validating"));
    expect(report, run.out).toContain("Your API description is valid");
    expect(report, run.out).not.toMatch(/warning|error/i);
  });

  it("describes every parameter and every field of every reply", () => {
    const undescribed: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== "object") return;
      const schema = node as Node;
      for (const [name, child] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
        if (name === "status" || child === false) continue;
        if (!(child as Node).description && !(child as Node).$ref) undescribed.push(`${where}.${name}`);
        walk(child, `${where}.${name}`);
      }
      for (const key of ["items", "oneOf", "anyOf", "prefixItems"]) {
        const value = schema[key];
        if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${where}.${key}[${i}]`));
        else walk(value, `${where}.${key}`);
      }
    };
    for (const [name, schema] of Object.entries(doc.components.schemas)) walk(schema, name);
    for (const [p, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const param of (op.parameters ?? []) as Node[]) if (!param.description) undescribed.push(`${method} ${p} ${String(param.name)}`);
        const body = (op.requestBody as { content?: Record<string, { schema: unknown }> } | undefined)?.content?.["application/x-www-form-urlencoded"]?.schema;
        walk(body, `${method} ${p} body`);
      }
    }
    expect(undescribed).toEqual([]);
  });

  it("types flags as yes/no enums and ids as integers, tells the creation forms and the drivers' replies apart", () => {
    const params = (p: string) => Object.fromEntries(((doc.paths[p]!.get!.parameters ?? []) as Node[]).map((x) => [x.name, x.schema as Node]));
    expect(params("/api/order/pre_cost").use_bonuses).toMatchObject({ type: "string", enum: ["yes", "no"] });
    expect(params("/api/order/pre_cost").service_id).toMatchObject({ type: "integer", minimum: 1 });
    const create = (doc.paths["/api/order"]!.post!.requestBody as { content: Record<string, { schema: { oneOf: Node[] } }> }).content;
    expect(Object.keys(create)).toEqual(["application/x-www-form-urlencoded", "multipart/form-data", "application/json"]);
    expect(create["application/json"]!.schema.oneOf.map((f) => [f.title, f.required])).toEqual([
      ["Address form", ["phone", "street"]],
      ["Token form", ["token"]],
    ]);
    const drivers = doc.components.schemas.GetDriversReply as { properties: { response: { oneOf: Node[] } } };
    expect(drivers.properties.response.oneOf).toHaveLength(2);
  });

  it("keeps the error object once, gives each operation its codes with which are safe to retry, and security [] to the public ones", () => {
    expect(JSON.stringify(doc).match(/"enum":\["MISSING_API_KEY"/g)).toHaveLength(1);
    for (const op of OPERATIONS) {
      const described = doc.paths[`/api/${op.path}`]![op.method.toLowerCase()]!;
      expect(described.security).toEqual(op.auth ? [{ apiKey: [] }] : []);
      const codes = (described["x-error-codes"] as Array<{ code: string; retry: string }>).map((e) => e.code);
      expect(codes).toContain("RATE_LIMITED");
      for (const code of op.errors ?? []) expect(codes).toContain(code);
      expect(String(described.description)).toContain("| Error code | Safe to retry |");
      expect((described.responses as Record<string, { headers?: Node }>)["200"]!.headers).toHaveProperty("Retry-After");
    }
  });

  it("is what the integrators' generated client (openapi-typescript) was made from: schema.d.ts is current", async () => {
    // out of date: npx tsx tests/support/dispatch-api/generate.ts
    expect(readFileSync(SCHEMA_FILE, "utf8")).toBe(await generateClientTypes());
  });
});
