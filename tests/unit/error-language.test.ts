// Error messages reach people (clients show error.message as it is): in the
// configured language, wholly. Every expectation the dispatch API writes in
// English where it checks a parameter must have its Russian wording, and an
// unknown one is left out of a Russian message rather than shown in English.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { errorMessage, expectedInRussian } from "@/server/i18n/errors";

const root = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : full.endsWith(".ts") ? [full] : [];
  });
}

/** The expectations written in the dispatch API and the services it calls, with ${...} filled by a sample number. */
function writtenExpectations(): string[] {
  const dirs = ["server/dispatch-api", "server/pricing", "server/geo", "server/orders", "server/balances"].map((d) => path.join(root, d));
  const found = new Set<string>();
  for (const file of dirs.flatMap(sources)) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/expected: (?:"([^"]+)"|`([^`]+)`)/g)) found.add((m[1] ?? m[2]!).replace(/\$\{[^}]+\}/g, "7"));
  }
  const params = readFileSync(path.join(root, "server/dispatch-api/params.ts"), "utf8");
  for (const m of params.matchAll(/(?:regex\([^,]+, |refine\([^,]+, |z\.enum\(\[[^\]]+\], |message: |max\([^,]+, )(?:"([^"]+)"|`([^`]+)`)/g)) {
    found.add((m[1] ?? m[2]!).replace(/\$\{[^}]+\}/g, "7"));
  }
  // (a replace(" ", "T") inside a refine is no message)
  return [...found].filter((text) => text.length > 2);
}

describe("error messages in the configured language", () => {
  it("has a Russian wording for every expectation the API writes", () => {
    const written = writtenExpectations();
    expect(written.length).toBeGreaterThan(20);
    const untranslated = written.filter((text) => expectedInRussian(text) === undefined);
    expect(untranslated).toEqual([]);
  });

  it("never shows an English fragment in a Russian message", () => {
    const message = errorMessage("BAD_PARAMETER", { parameter: "phone", expected: "something new in English" }, "ru");
    expect(message).toBe("Неверное значение параметра phone");
    expect(errorMessage("BAD_PARAMETER", { parameter: "service_id", expected: "natural number" }, "ru")).toBe("Неверное значение параметра service_id: ожидается натуральное число");
    expect(errorMessage("BAD_PARAMETER", { parameter: "extras", expected: 'extras as "3*1,7*2", {"3": 1} or [3, 7]' }, "ru")).not.toMatch(/\bor\b/);
  });
});
