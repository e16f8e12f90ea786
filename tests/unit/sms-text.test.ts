// The passenger SMS's text: GSM-7 or UCS-2, the parts of a long message
// (never splitting a character), the templates' placeholders cleaned and cut
// so that no value breaks the message, and the delivery receipts read.
import { describe, expect, it } from "vitest";
import { encodingOf, fitSms, lengthIn, shapeOf, splitSms } from "@/shared/sms/segments";
import { DEFAULT_TEMPLATES, SMS_EVENTS, renderSms, templateProblem } from "@/shared/sms/templates";
import { parseReceipt } from "@/server/sms/receipts";
import type { Pdu } from "smpp";

describe("encoding and parts", () => {
  it("GSM-7 for the GSM alphabet, extension characters counting two; UCS-2 for Cyrillic and emoji", () => {
    expect(encodingOf("Your car: white Kia, A123BC, in 5 min @ 10:00!")).toBe("GSM7");
    expect(encodingOf("Price €5 [promo]")).toBe("GSM7");
    expect(lengthIn("€[]", "GSM7")).toBe(6);
    expect(encodingOf("К вам едет машина")).toBe("UCS2");
    expect(encodingOf("ok 🚕")).toBe("UCS2");
    expect(lengthIn("🚕", "UCS2")).toBe(2);
  });

  it("one message up to 160 septets or 70 UCS-2 characters, then parts of 153 and 67", () => {
    expect(splitSms("a".repeat(160))).toHaveLength(1);
    const gsm = splitSms("a".repeat(161));
    expect(gsm.map((p) => p.length)).toEqual([153, 8]);
    expect(splitSms("я".repeat(70))).toHaveLength(1);
    expect(splitSms("я".repeat(71)).map((p) => p.length)).toEqual([67, 4]);
    expect(shapeOf("я".repeat(135))).toEqual({ encoding: "UCS2", length: 135, parts: 3 });
  });

  it("never splits an escape pair or a surrogate pair", () => {
    const gsm = splitSms(`${"a".repeat(152)}€${"b".repeat(20)}`);
    expect(gsm[0]).toBe("a".repeat(152));
    expect(gsm[1]!.startsWith("€")).toBe(true);
    const ucs = splitSms(`${"я".repeat(66)}🚕${"я".repeat(10)}`);
    expect(ucs[0]).toBe("я".repeat(66));
    expect(ucs[1]!.startsWith("🚕")).toBe(true);
    expect(ucs.join("")).toBe(`${"я".repeat(66)}🚕${"я".repeat(10)}`);
  });

  it("fits a text to a number of parts, cut on a character with an ellipsis", () => {
    const fitted = fitSms("я".repeat(500), 2);
    expect(shapeOf(fitted).parts).toBe(2);
    expect(fitted.endsWith("…")).toBe(true);
    const latin = fitSms("b".repeat(400), 1);
    expect(latin).toBe(`${"b".repeat(157)}...`);
    expect(fitSms("short", 1)).toBe("short");
  });
});

describe("templates", () => {
  it("has a built-in text for every event in both languages, each with known placeholders only", () => {
    for (const language of ["ru", "en"] as const) for (const event of SMS_EVENTS) expect(templateProblem(DEFAULT_TEMPLATES[language][event])).toBeNull();
  });

  it("fills placeholders with cleaned, cut values: no line breaks, no control characters, no second expansion", () => {
    const text = renderSms("Car %car%, %plate%. Driver %driver%.", { car: "white\nKia\u0000 Rio", plate: "%driver%", driver: "x".repeat(500) }, 4);
    expect(text).toBe(`Car white Kia Rio, %driver%. Driver ${"x".repeat(30)}.`);
    expect([...text].filter((c) => c.charCodeAt(0) < 0x20)).toEqual([]);
  });

  it("leaves out an optional clause whose placeholder has no value, and keeps plain brackets", () => {
    const template = "К вам едет %car%[, через %minutes% мин]. [Без сдачи]";
    expect(renderSms(template, { car: "Kia", minutes: "" }, 4)).toBe("К вам едет Kia. [Без сдачи]");
    expect(renderSms(template, { car: "Kia", minutes: "7" }, 4)).toBe("К вам едет Kia, через 7 мин. [Без сдачи]");
    expect(renderSms(DEFAULT_TEMPLATES.ru.ASSIGNED, { car: "Kia", plate: "А123ВС", driver: "Иван" }, 4)).not.toMatch(/через\s*мин/);
    expect(renderSms(DEFAULT_TEMPLATES.en.ASSIGNED, { car: "Kia", plate: "A123BC", driver: "Ivan", minutes: "5" }, 4)).toMatch(/^A Kia, A123BC is coming in 5 min\. Driver Ivan\./);
  });

  it("tidies what an empty value leaves and keeps unknown %words% as written", () => {
    expect(renderSms("A %car% , %plate%, in %minutes% min %unknown%", { car: "Kia", plate: "", minutes: "5" }, 4)).toBe("A Kia, in 5 min %unknown%");
  });

  it("fits the whole text to SMS_MAX_PARTS however long the values", () => {
    const long = renderSms("%address% %address% %address% %address% %address% %address% %address%", { address: "улица ".repeat(40) }, 2);
    expect(shapeOf(long).parts).toBeLessThanOrEqual(2);
  });

  it("refuses templates an administrator may not save", () => {
    expect(templateProblem("  ")).toEqual({ kind: "empty" });
    expect(templateProblem("x".repeat(481))).toEqual({ kind: "tooLong" });
    expect(templateProblem("bell \u0007")).toEqual({ kind: "control" });
    expect(templateProblem("Hi %car% %nope% %nope%")).toEqual({ kind: "unknown", names: ["nope"] });
    expect(templateProblem("Line one\nline two %tracking_url%")).toBeNull();
  });
});

describe("delivery receipts", () => {
  const pdu = (fields: Record<string, unknown>) => ({ command: "deliver_sm", command_status: 0, sequence_number: 1, ...fields }) as unknown as Pdu;

  it("reads the TLVs receipted_message_id and message_state", () => {
    expect(parseReceipt(pdu({ esm_class: 0x04, receipted_message_id: "abc1", message_state: 2, short_message: { message: "" } }))).toEqual({ messageId: "abc1", stat: "DELIVRD" });
    expect(parseReceipt(pdu({ esm_class: 0x04, receipted_message_id: "abc2", message_state: 5 }))).toEqual({ messageId: "abc2", stat: "UNDELIV" });
  });

  it("reads the receipt's text when there are no TLVs", () => {
    const text = "id:7F3A sub:001 dlvrd:001 submit date:2611251200 done date:2611251201 stat:DELIVRD err:000 text:Hello";
    expect(parseReceipt(pdu({ esm_class: 0x04, short_message: { message: text } }))).toEqual({ messageId: "7F3A", stat: "DELIVRD" });
  });

  it("ignores a passenger's own message (no receipt bit) and a receipt without an id", () => {
    expect(parseReceipt(pdu({ esm_class: 0, short_message: { message: "id:1 stat:DELIVRD" } }))).toBeNull();
    expect(parseReceipt(pdu({ esm_class: 0x04, short_message: { message: "stat:DELIVRD" } }))).toBeNull();
  });
});
