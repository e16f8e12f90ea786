// Hand-written column lists (the one-statement order insert) checked against
// Prisma's model: a renamed or retyped column fails here, not in production.
import { describe, expect, it } from "vitest";
import { ORDER_COLUMNS } from "../../server/orders/insert-order";
import { modelFields } from "./prisma-model";

/** The SQL cast each Prisma scalar type takes in our statements. */
const CAST_OF: Record<string, string[]> = {
  Int: ["int"],
  Float: ["float8"],
  String: ["text", "uuid"],
  Boolean: ["boolean"],
  DateTime: ["timestamp"],
  Json: ["jsonb"],
};

describe("ORDER_COLUMNS (server/orders/insert-order.ts) against model Order", () => {
  const fields = modelFields("Order");
  const byColumn = new Map(fields.map((f) => [f.column, f]));

  it("names only columns the model has, each once", () => {
    const columns = ORDER_COLUMNS.map(([column]) => column);
    expect(new Set(columns).size).toBe(columns.length);
    for (const column of columns) expect(byColumn.has(column), `column ${column}`).toBe(true);
  });

  it("takes each column from the field of that name, cast to its type", () => {
    for (const [column, field, cast] of ORDER_COLUMNS) {
      const model = byColumn.get(column)!;
      if (field !== "now") expect(field, `field of ${column}`).toBe(model.name);
      const casts = CAST_OF[model.type] ?? [`"${model.type}"`];
      expect(casts, `cast of ${column} (${model.type})`).toContain(cast);
    }
  });

  it("writes every non-optional column but those the database fills (id, client, defaults of later life)", () => {
    const written = new Set(ORDER_COLUMNS.map(([column]) => column));
    const schema = modelFields("Order");
    const required = schema.filter((f) => !f.optional && !["id", "client_id", "system_message", "cancel_reason", "version"].includes(f.column));
    for (const f of required) expect(written.has(f.column), `required column ${f.column}`).toBe(true);
  });
});
