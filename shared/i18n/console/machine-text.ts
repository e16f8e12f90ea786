// Reasons the system itself writes into an order's history and offers
// (server/dispatch, server/orders, the dispatch API) are stored in English, as
// the history's record; the console shows them in the operator's language.
// A reason typed by a person is shown as typed. Browser-safe.
import type { Locale } from "../../locale";

const SOURCES: Record<string, string> = { AUTO: "автоматически", DISPATCHER: "диспетчер", QUEUE: "очередь", BATCH: "пакетно", BATCHED: "пакетно", ADVANCE: "предварительный" };

const RU: Array<[RegExp, (...g: string[]) => string]> = [
  [/^offered to (.+), answer within (\d+) s \(attempt (\d+), (\w+)\)$/, (who, s, n, src) => `предложен ${who}, ответ в течение ${s} с (попытка ${n}, ${SOURCES[src] ?? src})`],
  [/^offered to (.+)$/, (who) => `предложен ${who}`],
  [/^no answer from (.+) in time$/, (who) => `${who} не ответил вовремя`],
  [/^nobody accepted after (\d+) offers: on the radio$/, (n) => `никто не принял после ${n} предложений: в эфир`],
  [/^offer accepted, arrives in (\d+) min$/, (m) => `предложение принято, подача через ${m} мин`],
  [/^chained after the current trip, arrives in (\d+) min$/, (m) => `после текущей поездки, подача через ${m} мин`],
  [/^advance order accepted$/, () => "предварительный заказ принят"],
  [/^arrives in (\d+) min$/, (m) => `подача через ${m} мин`],
  [/^set through the API$/, () => "установлено через API"],
  [/^cancelled through the API$/, () => "отменён через API"],
  [/^client notified by SMS$/, () => "клиенту отправлено SMS"],
  [/^taken in the driver app$/, () => "взят в приложении водителя"],
  [/^taken from the radio in the driver app$/, () => "взят из эфира в приложении водителя"],
  [/^completed by driver (.+)$/, (who) => `выполнен водителем ${who}`],
  [/^taken back by the dispatcher$/, () => "снят с водителя диспетчером"],
  [/^the driver did not confirm in time$/, () => "водитель не подтвердил вовремя"],
  [/^the driver did not confirm the advance order in time$/, () => "водитель не подтвердил предварительный заказ вовремя"],
];

/** A system-written reason in the operator's language (English as stored; anything else as typed). */
export function machineText(text: string, locale: Locale): string {
  if (locale !== "ru" || !text) return text;
  for (const [pattern, say] of RU) {
    const m = pattern.exec(text);
    if (m) return say(...m.slice(1));
  }
  return text;
}
