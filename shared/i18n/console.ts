// The operator console's words, Russian and English. Shared by the server
// (messages of refusals) and the browser (every label), so it holds plain
// data and small functions only.
import type { UserRole } from "../roles";
import type { Locale } from "../locale";
import * as shell from "./console/shell";
import * as board from "./console/board";
import * as newOrder from "./console/new-order";
import * as drivers from "./console/drivers";
import * as admin from "./console/admin";
import * as map from "./console/map";
import * as balances from "./console/balances";
import * as reference from "./console/reference";
import * as exchange from "./console/exchange";
import * as dispatch from "./console/dispatch";
import * as driverFit from "./console/driver-fit";
import * as reports from "./console/reports";
import * as sms from "./console/sms";
import * as ratings from "./console/ratings";
import * as driverLiveness from "./console/dispatch-liveness";
import * as nightShift from "./console/night-shift";
import * as phone from "./console/phone";
import * as meter from "./console/meter";
import * as clients from "./console/clients";

// One file per page (console/*.ts); the two languages side by side in each.
const ru = { ...shell.ru, ...board.ru, ...newOrder.ru, ...drivers.ru, ...admin.ru, ...map.ru, ...balances.ru, ...reference.ru, ...exchange.ru, ...dispatch.ru, ...reports.ru, ...sms.ru, ...ratings.ru, ...driverLiveness.ru, ...nightShift.ru, ...meter.ru, ...phone.ru, ...clients.ru };

export type ConsoleStrings = typeof ru;

const en: ConsoleStrings = { ...shell.en, ...board.en, ...newOrder.en, ...drivers.en, ...admin.en, ...map.en, ...balances.en, ...reference.en, ...exchange.en, ...dispatch.en, ...reports.en, ...sms.en, ...ratings.en, ...driverLiveness.en, ...nightShift.en, ...meter.en, ...phone.en, ...clients.en };

export const consoleStrings: Record<Locale, ConsoleStrings> = { ru, en };

export function roleTitle(role: UserRole, locale: Locale): string {
  return consoleStrings[locale].roles[role];
}

type Details = Record<string, string | number | boolean | null | undefined>;

interface ServerMessages {
  signInAgain: string;
  roleRequired: (roles: string) => string;
  badInput: (fields: string) => string;
  /** Refusals of the console's services by `details.reasonKey`. */
  reasons: Record<string, (d: Details) => string>;
}

/** Messages the server sends with refusals, in the operator's language. */
export const serverMessages: Record<Locale, ServerMessages> = {
  ru: {
    signInAgain: "Сессия завершилась или учётная запись отключена. Войдите снова.",
    roleRequired: (roles) => `Недостаточно прав: нужна роль ${roles}`,
    badInput: (fields) => (fields ? `Проверьте поля: ${fields}` : "Неверные данные запроса"),
    reasons: {
      stale: () => "Конфликт: заказ уже изменил кто-то другой. Обновите его и повторите.",
      finished: () => "Завершённый заказ изменить нельзя",
      notOnModeration: () => "Заказ уже не на модерации",
      emailTaken: (d) => `Конфликт: почта ${d.email ?? ""} уже занята`,
      selfAdmin: () => "Нельзя снять роль администратора с самого себя",
      selfDisable: () => "Нельзя отключить самого себя",
      callSignTaken: (d) => `Конфликт: позывной ${d.callSign ?? ""} уже занят`,
      extraCodeTaken: (d) => `Конфликт: у услуги уже есть доп. услуга с кодом ${d.code ?? ""}`,
      streetExists: (d) => `Конфликт: «${d.street ?? ""}» уже есть в этом городе`,
      houseExists: (d) => `Конфликт: дом ${d.house ?? ""} на этой улице уже есть`,
      houseTwice: (d) => `Дом ${d.house ?? ""} указан дважды`,
      driverHasOrder: (d) => `Водитель ${d.callSign ?? ""} выполняет заказ: отключить можно после его завершения`,
      phoneListed: (d) => `Номер ${d.phone ?? ""} уже в чёрном списке`,
      hoursPair: () => "Часы тарифа: укажите оба часа или ни одного",
      alreadyDelivered: () => "Сообщение уже доставлено",
      "polygon.tooFew": () => "Район: нужно не меньше трёх вершин",
      "polygon.tooMany": () => "Район: слишком много вершин",
      "polygon.badPoint": (d) => `Район: неверные координаты вершины ${d.index ?? ""}`,
      "polygon.duplicate": (d) => `Район: вершина ${d.index ?? ""} совпадает с другой`,
      "polygon.crossing": (d) => `Район: стороны ${d.a ?? ""} и ${d.b ?? ""} пересекаются`,
      "polygon.flat": () => "Район: площадь многоугольника равна нулю",
      ...driverFit.ru,
      ...reports.reasonsRu,
      ...sms.reasonsRu,
      ...nightShift.reasonsRu,
      ...phone.reasonsRu,
    },
  },
  en: {
    signInAgain: "Your session ended or the account is disabled. Please sign in again.",
    roleRequired: (roles) => `Not allowed: requires the role ${roles}`,
    badInput: (fields) => (fields ? `Check the fields: ${fields}` : "Bad request data"),
    reasons: {
      stale: () => "Conflict: someone else has changed the order. Reload it and try again.",
      finished: () => "A finished order cannot be edited",
      notOnModeration: () => "The order is no longer on moderation",
      emailTaken: (d) => `Conflict: the email ${d.email ?? ""} is taken`,
      selfAdmin: () => "You cannot remove your own administrator role",
      selfDisable: () => "You cannot disable yourself",
      callSignTaken: (d) => `Conflict: the call sign ${d.callSign ?? ""} is taken`,
      extraCodeTaken: (d) => `Conflict: the service already has an extra with the code ${d.code ?? ""}`,
      streetExists: (d) => `Conflict: “${d.street ?? ""}” already exists in this city`,
      houseExists: (d) => `Conflict: house ${d.house ?? ""} already exists on this street`,
      houseTwice: (d) => `House ${d.house ?? ""} is given twice`,
      driverHasOrder: (d) => `Driver ${d.callSign ?? ""} is on an order: disable them once it is finished`,
      phoneListed: (d) => `The number ${d.phone ?? ""} is already blacklisted`,
      hoursPair: () => "Rate hours: give both hours or neither",
      alreadyDelivered: () => "The message has already been delivered",
      "polygon.tooFew": () => "Region: at least three vertices are needed",
      "polygon.tooMany": () => "Region: too many vertices",
      "polygon.badPoint": (d) => `Region: bad coordinates of vertex ${d.index ?? ""}`,
      "polygon.duplicate": (d) => `Region: vertex ${d.index ?? ""} repeats another one`,
      "polygon.crossing": (d) => `Region: sides ${d.a ?? ""} and ${d.b ?? ""} cross`,
      "polygon.flat": () => "Region: the polygon has no area",
      ...driverFit.en,
      ...reports.reasonsEn,
      ...sms.reasonsEn,
      ...nightShift.reasonsEn,
      ...phone.reasonsEn,
    },
  },
};
