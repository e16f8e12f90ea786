// Text PostgreSQL cannot take (server/http/nul.ts): a NUL character or an
// unpaired UTF-16 surrogate, anywhere in parsed JSON, keys included; a pair
// (an emoji, a rare CJK character) is ordinary text.
import { describe, expect, it } from "vitest";
import { holdsUnstorableText } from "../../server/http/nul";

describe("holdsUnstorableText", () => {
  it("passes ordinary text, surrogate pairs included", () => {
    for (const text of ["", "ул. Ленина", "🚕 такси", "𠀀", "a\ud83d\ude95b", "\ufffd"]) expect(holdsUnstorableText(text), JSON.stringify(text)).toBe(false);
    expect(holdsUnstorableText({ street: "🚕", list: ["𠀀", 1, null, { deep: "ok" }] })).toBe(false);
  });

  it("finds a NUL or an unpaired surrogate in a string, a key, or deep inside", () => {
    for (const text of ["\u0000", "a\u0000b", "\ud800", "\udfff", "\udfff\ud800", "x\ud83d", "\ude95y", "\ud83d\ud83d\ude95\ude95"]) {
      expect(holdsUnstorableText(text), JSON.stringify(text)).toBe(true);
    }
    expect(holdsUnstorableText(JSON.parse('{"driver_code":"\\ud800"}'))).toBe(true);
    expect(holdsUnstorableText({ ["k\ud800"]: 1 })).toBe(true);
    expect(holdsUnstorableText({ a: [{ b: ["ok", "\udc00"] }] })).toBe(true);
  });
});
