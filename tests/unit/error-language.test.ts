// Error messages reach people (clients show error.message as it is): in the
// configured language, wholly. Every expectation the dispatch API writes in
// English where it checks a parameter must have its Russian wording, and an
// unknown one is left out of a Russian message rather than shown in English.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { errorMessage, expectedInRussian } from "@/server/i18n/errors";
import { mixedWords } from "../support/language";

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

// ---------------------------------------------------------------- the whole catalogue

/** `key: "literal"` and `key: \`template\`` values of the errors thrown anywhere in server/ (`new XError("CODE", { ... key: ...`), ${...} filled with a sample identifier. */
function writtenValues(key: string, codes?: string[]): string[] {
  const found = new Set<string>();
  const pattern = new RegExp(`(?:Error|Refused)\\("(${codes ? codes.join("|") : "[A-Z_]+"})",\\s*\\{[^}]*?\\b${key}: (?:"([^"]+)"|\`([^\`]+)\`)`, "g");
  for (const file of sources(path.join(root, "server"))) {
    if (file.includes(`${path.sep}generated${path.sep}`)) continue;
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(pattern)) found.add((m[2] ?? m[3]!).replace(/\$\{[^}]+\}/g, "X7"));
  }
  return [...found];
}

describe("every error message of the catalogue, in both languages", () => {
  const whats = writtenValues("what");
  const reasons = writtenValues("reason");
  // The codes whose messages show the reason (server/i18n/errors.ts).
  const shown = writtenValues("reason", ["CONFLICT", "GONE", "NOT_ACCEPTABLE", "BAD_REQUEST", "FORBIDDEN", "UNAUTHORIZED", "TOKEN_INVALID"]);
  // The exchange's own protocol speaks English whatever LANGUAGE is (server/exchange-api/reply.ts); its market's
  // refusals never reach a Russian message. Everything else may.
  const englishOnly = (text: string) => /^(?:meta\.|the Authorization header|the query string|the notification|the request has no data|the exchange (?:is unreachable|refused)|use X7)/.test(text);

  it("finds what the server writes", () => {
    expect(whats).toContain("Order of this driver");
    expect(reasons).toContain("txn_id X7 was already used for another payment");
  });

  it("has a Russian wording for every object and every reason a Russian message may show", async () => {
    const { inRussian, notFoundInRussian } = await import("@/server/i18n/errors");
    expect(whats.filter((what) => notFoundInRussian(what) === notFoundInRussian("Object") && what !== "Object")).toEqual([]);
    expect(shown.filter((reason) => !englishOnly(reason) && inRussian(reason) === undefined)).toEqual([]);
  });

  it("mixes no languages for any code, object or reason", async () => {
    const { ERROR_CODES } = await import("@/server/errors");
    // Each sample on top of the details every code needs (a parameter, states, an address...).
    const base = { parameter: "way_points", expected: "a JSON array of address points", from: "FREE", fromCode: 9, to: "DONE_REMOVED", toCode: 91, address: "ул. Ленина, 2", method: "DELETE", limit: 262144, serviceId: 3 };
    const samples = [
      base,
      { ...base, parameter: "phone", expected: "something only English has" },
      ...whats.map((what) => ({ ...base, what, id: "X7" })),
      ...reasons.map((reason) => ({ ...base, reason })),
    ];
    const mixed: string[] = [];
    for (const code of ERROR_CODES) {
      for (const details of samples) {
        for (const language of ["ru", "en"] as const) {
          const message = errorMessage(code, details, language);
          const allowed = [String((details as { parameter?: string }).parameter ?? ""), String((details as { address?: string }).address ?? "")];
          const bad = mixedWords(message, language, allowed);
          if (bad.length) mixed.push(`${language} ${code}: ${message}  [${bad.join(", ")}]`);
        }
      }
    }
    expect(mixed).toEqual([]);
  });
});
