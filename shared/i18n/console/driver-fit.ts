// Refusals of the console's night-shift services by `details.reasonKey`, in the
// operator's language: why a driver typed by call sign may not take the order
// (server/console/give-to-driver.ts), the offer's own refusals, age limits.
import { formatKopecks } from "../../money";

type Details = Record<string, string | number | boolean | null | undefined>;
type Reasons = Record<string, (d: Details) => string>;

const money = (value: Details[string], locale: "ru" | "en") => formatKopecks(/^-?\d+$/.test(String(value)) ? BigInt(String(value)) : null, locale);

export const ru: Reasons = {
  driverUnknown: (d) => `Водителя с позывным ${d.callSign ?? ""} нет`,
  driverBlocked: (d) => `Водитель ${d.callSign ?? ""} заблокирован`,
  driverOffShift: (d) => `Водитель ${d.callSign ?? ""} не на смене`,
  driverOtherService: (d) => `Водитель ${d.callSign ?? ""} не работает в службе этого заказа`,
  driverBusy: (d) => `Водитель ${d.callSign ?? ""} занят`,
  driverLowBalance: (d) => `У водителя ${d.callSign ?? ""} баланс ${money(d.balance, "ru")} ниже минимума ${money(d.minimum, "ru")}`,
  driverRefused: (d) => `Водитель ${d.callSign ?? ""} уже отказался от этого заказа`,
  driverOnBreak: (d) => `Водитель ${d.callSign ?? ""} на перерыве`,
  driverOtherCity: (d) => `Водитель ${d.callSign ?? ""} работает в другом городе`,
  driverNoRegion: (d) => `Водитель ${d.callSign ?? ""} стоит вне районов`,
  ageOrder: () => "Красный порог должен быть больше жёлтого",
  ageAdvanceOrder: () => "Для предварительного заказа жёлтый порог — больше минут до подачи, чем красный",
  orderNotAssignable: () => "Заказ уже у водителя: сначала снимите его с водителя",
  // The offer's own refusals (server/dispatch/offer.ts), found under its locks.
  orderNotFree: () => "Конфликт: заказ уже не свободен",
  alreadyOffered: () => "Конфликт: заказ уже предложен водителю",
  driverNotFree: () => "Конфликт: водитель не свободен",
  driverOffered: () => "Конфликт: водитель отвечает на другое предложение",
};

export const en: Reasons = {
  driverUnknown: (d) => `There is no driver with the call sign ${d.callSign ?? ""}`,
  driverBlocked: (d) => `Driver ${d.callSign ?? ""} is blocked`,
  driverOffShift: (d) => `Driver ${d.callSign ?? ""} is not on shift`,
  driverOtherService: (d) => `Driver ${d.callSign ?? ""} does not work for this order's service`,
  driverBusy: (d) => `Driver ${d.callSign ?? ""} is busy`,
  driverLowBalance: (d) => `Driver ${d.callSign ?? ""} has a balance of ${money(d.balance, "en")}, below the minimum of ${money(d.minimum, "en")}`,
  driverRefused: (d) => `Driver ${d.callSign ?? ""} has already refused this order`,
  driverOnBreak: (d) => `Driver ${d.callSign ?? ""} is on a break`,
  driverOtherCity: (d) => `Driver ${d.callSign ?? ""} works in another city`,
  driverNoRegion: (d) => `Driver ${d.callSign ?? ""} stands outside every region`,
  ageOrder: () => "The red limit must be above the amber one",
  ageAdvanceOrder: () => "For an advance order the amber limit is more time before the pickup than the red one",
  orderNotAssignable: () => "The order is already with a driver: take it back first",
  orderNotFree: () => "Conflict: the order is no longer free",
  alreadyOffered: () => "Conflict: the order is already offered to a driver",
  driverNotFree: () => "Conflict: the driver is not free",
  driverOffered: () => "Conflict: the driver is answering another offer",
};
