// The hint card's sentence (shared/i18n/driver.ts): what the coverage rule
// measured, Russian nouns in the form their count asks for (1 заказ,
// 2 заказа, 5 заказов, 11 заказов, 21 заказ), the saving in seconds under a
// minute and a half, in minutes above.
import { describe, expect, it } from "vitest";
import { driverStrings } from "../../shared/i18n/driver";

const reason = (pickups: number, regionOrders: number, freeCars: number, savesSeconds: number) => ({ pickups, windowMinutes: 60, regionOrders, freeCars, savesSeconds });

describe("the region hint's text", () => {
  it("counts orders and cars in the right Russian form", () => {
    const ru = driverStrings.ru.hintText;
    expect(ru(reason(1, 1, 0, 12))).toMatch(/^За 60 мин по городу 1 заказ, 1 из них в этом районе; там 0 свободных машин\. Если ждать там, ближайшая свободная машина будет у заказа в среднем на 12 с быстрее\./);
    expect(ru(reason(3, 2, 1, 40))).toMatch(/^За 60 мин по городу 3 заказа, 2 из них в этом районе; там 1 свободная машина\./);
    expect(ru(reason(12, 5, 2, 8))).toMatch(/^За 60 мин по городу 12 заказов, 5 из них в этом районе; там 2 свободные машины\./);
    expect(ru(reason(21, 3, 11, 8))).toMatch(/^За 60 мин по городу 21 заказ, 3 из них в этом районе; там 11 свободных машин\./);
    expect(ru(reason(114, 30, 24, 150))).toMatch(/^За 60 мин по городу 114 заказов, 30 из них в этом районе; там 24 свободные машины\. Если ждать там, ближайшая свободная машина будет у заказа в среднем на 3 мин быстрее\. Это подсказка, не заказ/);
  });

  it("English: singular for one", () => {
    expect(driverStrings.en.hintText(reason(1, 1, 1, 30))).toMatch(/^1 order in the city in the last 60 min, 1 of them in this region; 1 free car there\. Waiting there, the nearest free car reaches an order 30 s sooner on average\./);
    expect(driverStrings.en.hintText(reason(5, 0, 0, 95))).toMatch(/^5 orders in the city in the last 60 min, 0 of them in this region; 0 free cars there\. Waiting there, the nearest free car reaches an order 2 min sooner on average\. A hint, not an order/);
  });
});
