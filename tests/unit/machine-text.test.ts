// System-written reasons of an order's history in the console's language
// (shared/i18n/console/machine-text.ts): each reason the services write has
// its Russian; a person's words are left as typed.
import { describe, expect, it } from "vitest";
import { machineText } from "@/shared/i18n/console/machine-text";

describe("machine text in the card", () => {
  it("says the system's reasons in Russian", () => {
    expect(machineText("offered to 111, answer within 30 s (attempt 2, DISPATCHER)", "ru")).toBe("предложен 111, ответ в течение 30 с (попытка 2, диспетчер)");
    expect(machineText("no answer from 111 in time", "ru")).toBe("111 не ответил вовремя");
    expect(machineText("set through the API", "ru")).toBe("установлено через API");
    expect(machineText("offer accepted, arrives in 7 min", "ru")).toBe("предложение принято, подача через 7 мин");
    expect(machineText("nobody accepted after 3 offers: on the radio", "ru")).toBe("никто не принял после 3 предложений: в эфир");
  });

  it("leaves English as stored, and a person's words as typed", () => {
    expect(machineText("no answer from 111 in time", "en")).toBe("no answer from 111 in time");
    expect(machineText("Клиент ждёт у подъезда", "ru")).toBe("Клиент ждёт у подъезда");
  });
});
