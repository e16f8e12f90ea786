import { describe, expect, it } from "vitest";
import { slaveBases, tryAnotherAddress } from "@/server/exchange/participant/client";
import { deriveClass } from "@/server/exchange/sync";

describe("the exchange's slave addresses", () => {
  const main = "https://exchange.example/exchange";
  it("a URL is a base (main's path when it has none); a host takes main's place", () => {
    expect(slaveBases(main, "https://b.example/api, 10.0.0.7, c.example:8443; https://d.example")).toEqual([
      "https://b.example/api",
      "https://10.0.0.7/exchange",
      "https://c.example:8443/exchange",
      "https://d.example/exchange",
    ]);
  });
  it("skips main itself, repeats and what is no address", () => {
    expect(slaveBases(main, "exchange.example, https://exchange.example/exchange, ,, http://[bad")).toEqual([]);
  });
  it("another address is tried when main is unreachable or failing, not when it answered", () => {
    expect(tryAnotherAddress(undefined)).toBe(true);
    expect(tryAnotherAddress(503)).toBe(true);
    expect(tryAnotherAddress(401)).toBe(false);
    expect(tryAnotherAddress(200)).toBe(false);
  });
});

describe("a service's car class from the reference's data", () => {
  const classes = [
    { id: 1, names: ["1", "economy", "эконом"] },
    { id: 2, names: ["2", "comfort", "комфорт"] },
  ];
  it("the class a name or description names, else every class (null)", () => {
    expect(deriveClass(classes, " Эконом ", "")).toBe(1);
    expect(deriveClass(classes, "Taxi", "comfort")).toBe(2);
    expect(deriveClass(classes, "Такси", "любые машины")).toBeNull();
  });
});
