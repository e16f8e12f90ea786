// The suite's seeded templates, made once by `npm test` before its lanes
// (scripts/test.sh) instead of once in each lane's vitest process: the
// integration and reliability projects of each database run in processes of
// their own, and each would otherwise migrate and seed the demo city again.
//   tsx tests/support/run-templates.ts create FILE   both templates; FILE describes them (TEST_TEMPLATES)
//   tsx tests/support/run-templates.ts drop FILE     drops what FILE describes
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createTemplate, dropTemplate, type Template } from "../reliability/support/db";

const [mode, file] = process.argv.slice(2);
if (!file || (mode !== "create" && mode !== "drop")) {
  console.error("usage: tsx tests/support/run-templates.ts create|drop FILE");
  process.exit(2);
}
if (mode === "create") {
  const [pglite, postgres] = await Promise.all([createTemplate("pglite"), createTemplate("postgres")]);
  writeFileSync(file, JSON.stringify({ pglite, postgres }));
} else if (existsSync(file)) {
  const made = JSON.parse(readFileSync(file, "utf8")) as Record<string, Template>;
  await Promise.all(Object.values(made).map((template) => dropTemplate(template)));
  rmSync(file, { force: true });
}
