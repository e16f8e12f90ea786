// Phones of any country: read with libphonenumber-js, stored in E.164, shown
// to people in their national format, to integrators with the plus; and the
// data migration that brought older rows (digits only) to E.164.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatPhone, internationalPhone, normalizePhone } from "@/server/orders/phone";
import { parseConfig } from "@/server/config";
import { openLocalDb } from "../support/local-db";
import { db, rawQuery } from "@/server/db";

describe("reading phones as people write them", () => {
  it("keeps each number's own country, reading the rest in DEFAULT_COUNTRY", () => {
    const cases: Array<[string, string]> = [
      ["89161234567", "+79161234567"],
      ["8 (916) 123-45-67", "+79161234567"],
      ["+7 916 123 45 67", "+79161234567"],
      ["79161234567", "+79161234567"],
      ["9161234567", "+79161234567"],
      ["+998919800555", "+998919800555"],
      ["998919800555", "+998919800555"], // E.164 without its plus
      ["00998919800555", "+998919800555"],
      ["8 029 123 45 67", "+375291234567"], // dialled at home in Belarus, not a Russian number
      ["+375 29 123-45-67", "+375291234567"],
      ["+7 701 123 4567", "+77011234567"], // Kazakhstan keeps +7
      ["87011234567", "+77011234567"],
    ];
    for (const [typed, stored] of cases) expect(normalizePhone(typed, "RU"), typed).toBe(stored);
    for (const bad of ["", "12", "abc", "+", "8-800"]) expect(normalizePhone(bad, "RU"), bad).toBeUndefined();
  });

  it("reads national numbers in the configured country", () => {
    expect(normalizePhone("91 980 05 55", "UZ")).toBe("+998919800555");
    expect(normalizePhone("029 123 45 67", "BY")).toBe("+375291234567");
    // a Russian number still is one from Uzbekistan's point of view
    expect(normalizePhone("8 916 123 45 67", "UZ")).toBe("+79161234567");
    expect(parseConfig({}).DEFAULT_COUNTRY).toBe("RU");
    expect(parseConfig({ DEFAULT_COUNTRY: "uz" }).DEFAULT_COUNTRY).toBe("UZ");
    expect(() => parseConfig({ DEFAULT_COUNTRY: "XX" })).toThrow(/DEFAULT_COUNTRY/);
  });

  it("shows people the national format and integrators the plus, for old rows too", () => {
    expect(formatPhone("+79161234567")).toBe("8 (916) 123-45-67");
    expect(formatPhone("79161234567")).toBe("8 (916) 123-45-67");
    expect(formatPhone("+998919800555")).toBe("91 980 05 55");
    expect(internationalPhone("998919800555")).toBe("+998919800555");
    expect(internationalPhone("+375291234567")).toBe("+375291234567");
  });
});

describe("the migration of stored phones to E.164", () => {
  let close: () => Promise<void>;
  beforeAll(async () => ({ close } = await openLocalDb()), 120_000);
  afterAll(async () => close());

  it("puts the plus in front of digits-only rows, so lookups by any form keep matching", async () => {
    const query = rawQuery(db());
    await query(`INSERT INTO client (phone, name, bonus) VALUES ('79160000001', 'old', 70), ('+79160000003', 'new', 0)`);
    await query(`INSERT INTO blacklisted_phone (phone, reason) VALUES ('79160000002', 'old')`);
    const sql = readFileSync(path.resolve(import.meta.dirname, "../../prisma/migrations/20261123130000_phones_e164/migration.sql"), "utf8");
    for (const statement of sql.replace(/--.*$/gm, "").split(";").map((s) => s.trim()).filter(Boolean)) await query(statement);
    const clients = await query<{ phone: string; bonus: number }>(`SELECT phone, bonus FROM client WHERE name IN ('old', 'new') ORDER BY phone`);
    expect(clients).toEqual([{ phone: "+79160000001", bonus: 70 }, { phone: "+79160000003", bonus: 0 }]);
    expect(await query(`SELECT phone FROM blacklisted_phone WHERE reason = 'old'`)).toEqual([{ phone: "+79160000002" }]);
    // a lookup of the client's bonus by what a client sends
    const [found] = await query<{ bonus: number }>(`SELECT bonus FROM client WHERE phone = $1`, [normalizePhone("8 916 000-00-01", "RU")]);
    expect(found?.bonus).toBe(70);
  });
});
