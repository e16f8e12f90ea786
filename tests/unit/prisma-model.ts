// A small reader of prisma/schema.prisma's models, for tests that hold
// hand-written SQL column lists to the schema: each field's name, column
// (its @map, else its name), type and whether it is a list or optional.
import { readFileSync } from "node:fs";
import path from "node:path";

export interface ModelField {
  name: string;
  column: string;
  type: string;
  optional: boolean;
}

const schemaPath = path.resolve(import.meta.dirname, "../../prisma/schema.prisma");

export function modelFields(model: string): ModelField[] {
  const schema = readFileSync(schemaPath, "utf8");
  const start = schema.indexOf(`model ${model} {`);
  if (start < 0) throw new Error(`no model ${model} in schema.prisma`);
  const body = schema.slice(start, schema.indexOf("\n}", start));
  const fields: ModelField[] = [];
  for (const line of body.split("\n").slice(1)) {
    const m = /^\s+(\w+)\s+(\w+)(\[\])?(\?)?(.*)$/.exec(line);
    if (!m || m[3] || /@relation\(/.test(m[5] ?? "")) continue;
    const [, name = "", type = "", , optional, rest = ""] = m;
    if (/^[A-Z]/.test(type) && !["String", "Int", "Float", "Boolean", "DateTime", "Json", "BigInt", "Decimal", "Bytes"].includes(type) && !isEnum(schema, type)) continue;
    const mapped = /@map\("([^"]+)"\)/.exec(rest);
    fields.push({ name, column: mapped?.[1] ?? name, type, optional: optional === "?" });
  }
  return fields;
}

export function isEnum(schema: string, type: string): boolean {
  return schema.includes(`enum ${type} {`);
}
