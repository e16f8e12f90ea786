// The layer rules of eslint.config.js refuse what they are meant to refuse:
// each probe is linted as if it lived at that path (nothing is written).
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
// Type-aware rules need the probe in the TypeScript project; the layer rules do not.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      "@typescript-eslint/no-floating-promises": "off",
      "@typescript-eslint/no-misused-promises": "off",
      "@typescript-eslint/await-thenable": "off",
      "@typescript-eslint/no-unnecessary-type-assertion": "off",
    },
  },
});

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).filter((m) => m.severity === 2).map((m) => m.ruleId ?? m.message);
}

describe("lint: the layers", () => {
  it("shared/ imports nothing of the server", async () => {
    expect(await problems("shared/probe.ts", `import { config } from "../server/config";\nexport const c = config;\n`)).toContain("no-restricted-imports");
    expect(await problems("shared/probe.ts", `import { z } from "zod";\nexport const s = z.string();\n`)).toEqual([]);
  });

  it("browser code takes only tRPC types from server/", async () => {
    const client = `"use client";\nimport { db } from "@/server/db";\nexport const d = db;\n`;
    expect(await problems("app/(console)/probe.tsx", client)).toContain("layers/browser-imports");
    expect(await problems("app/components/probe.ts", `import { db } from "@/server/db";\nexport const d = db;\n`)).toContain("layers/browser-imports");
    expect(await problems("app/components/probe.ts", `import type { AppRouter } from "@/server/trpc/root";\nexport type R = AppRouter;\n`)).toEqual([]);
    expect(await problems("app/components/probe.ts", `import { appRouter } from "@/server/trpc/root";\nexport const r = appRouter;\n`)).toContain("layers/browser-imports");
  });

  it("protocol adapters do not query", async () => {
    const code = `import type { Db } from "../../db";\nexport const f = (ctx: { db: Db }) => ctx.db.order.findMany();\n`;
    expect(await problems("server/dispatch-api/operations/probe.ts", code)).toContain("no-restricted-syntax");
    expect(await problems("server/trpc/routers/probe.ts", `import { preparedQuery } from "../../db/prepared";\nexport const p = preparedQuery;\n`)).toContain("no-restricted-imports");
  });

  it("orders/ imports nothing from the exchange", async () => {
    expect(await problems("server/orders/probe.ts", `import { sellOrder } from "../exchange/participant/sell";\nexport const s = sellOrder;\n`)).toContain("no-restricted-imports");
  });

  it("SQL text goes through server/db/sql.ts", async () => {
    const code = `import type { Tx } from "../db";\nexport const f = (tx: Tx) => tx.$queryRawUnsafe("SELECT 1");\n`;
    expect(await problems("server/pricing/probe.ts", code)).toContain("no-restricted-syntax");
    expect(await problems("server/db/probe.ts", code)).toEqual([]);
  });
});
