// The console's words for the passengers' SMS (reference data: texts per
// event and language, the service's settings; the order card's messages),
// Russian and English.
const ruSms = {
  tab: "SMS пассажирам",
  title: "SMS пассажирам",
  sub: "Тексты сообщений по событиям для каждой службы и языка. Подстановки в знаках процента; значения очищаются и укорачиваются, длинный текст делится на части.",
  service: "Служба",
  settings: "Настройки службы",
  language: "Язык пассажиров",
  sender: "Имя отправителя",
  senderHint: "До 11 латинских букв и цифр или номер; пусто — общее (SMS_SENDER)",
  patience: "Терпение службы, мин",
  patienceHint: "Сколько искать машину, прежде чем снять заказ «нет машин» и сообщить пассажиру; 0 — не снимать",
  saveSettings: "Сохранить настройки",
  settingsSaved: "Настройки SMS сохранены",
  languages: { ru: "Русский", en: "Английский" },
  events: { ASSIGNED: "Назначена машина", ARRIVING: "Машина подъезжает", WAITING: "Машина ждёт", FARE: "Стоимость после поездки", NO_CAR: "Машина не найдена" },
  placeholders: "Подстановки",
  own: "свой текст",
  builtIn: "текст по умолчанию",
  save: "Сохранить",
  reset: "Вернуть текст по умолчанию",
  saved: (event: string) => `Текст «${event}» сохранён`,
  resetDone: (event: string) => `Для «${event}» снова текст по умолчанию`,
  shape: (parts: number, encoding: string, length: number) => `${parts} ${parts === 1 ? "часть" : parts < 5 ? "части" : "частей"}, ${encoding === "UCS2" ? "UCS-2" : "GSM-7"}, ${length} симв. (без подстановок)`,
  problems: {
    empty: "Текст пуст",
    tooLong: "Текст слишком длинный",
    control: "Текст содержит управляющие символы",
    unknown: (names: string) => `Неизвестные подстановки: ${names}`,
  },
  card: "SMS пассажиру",
  none: "Сообщений не было",
  states: { QUEUED: "в очереди", SENT: "отправлено", DELIVERED: "доставлено", FAILED: "не доставлено" },
  parts: (n: number) => `частей: ${n}`,
};

export type SmsStrings = typeof ruSms;

const enSms: SmsStrings = {
  tab: "Passenger SMS",
  title: "Passenger SMS",
  sub: "The messages' texts per event for each service and language. Placeholders between percent signs; their values are cleaned and shortened, a long text is sent in parts.",
  service: "Service",
  settings: "Service settings",
  language: "Passengers' language",
  sender: "Sender name",
  senderHint: "Up to 11 Latin letters and digits, or a number; empty: the common one (SMS_SENDER)",
  patience: "Service's patience, min",
  patienceHint: "How long to look for a car before the order is closed as \"no cars\" and the passenger told; 0: never",
  saveSettings: "Save the settings",
  settingsSaved: "SMS settings saved",
  languages: { ru: "Russian", en: "English" },
  events: { ASSIGNED: "Car assigned", ARRIVING: "Car arriving", WAITING: "Car is waiting", FARE: "Fare after the trip", NO_CAR: "No car found" },
  placeholders: "Placeholders",
  own: "own text",
  builtIn: "default text",
  save: "Save",
  reset: "Back to the default text",
  saved: (event: string) => `Text "${event}" saved`,
  resetDone: (event: string) => `"${event}" uses the default text again`,
  shape: (parts: number, encoding: string, length: number) => `${parts} part${parts === 1 ? "" : "s"}, ${encoding === "UCS2" ? "UCS-2" : "GSM-7"}, ${length} characters (placeholders unfilled)`,
  problems: {
    empty: "The text is empty",
    tooLong: "The text is too long",
    control: "The text holds control characters",
    unknown: (names: string) => `Unknown placeholders: ${names}`,
  },
  card: "SMS to the passenger",
  none: "No messages",
  states: { QUEUED: "queued", SENT: "sent", DELIVERED: "delivered", FAILED: "not delivered" },
  parts: (n: number) => `parts: ${n}`,
};

export const ru = { sms: ruSms };
export const en = { sms: enSms };

type Details = Record<string, string | number | boolean | null | undefined>;

/** Refusals of the SMS settings by reasonKey (server/sms/service-settings.ts). */
export const reasonsRu: Record<string, (d: Details) => string> = {
  "smsTemplate.empty": () => "Текст SMS пуст",
  "smsTemplate.tooLong": () => "Текст SMS слишком длинный",
  "smsTemplate.control": () => "Текст SMS содержит управляющие символы",
  "smsTemplate.unknown": (d) => `Неизвестные подстановки в тексте SMS: ${d.names ?? ""}`,
  smsSender: () => "Имя отправителя: до 11 латинских букв и цифр или номер телефона",
};

export const reasonsEn: Record<string, (d: Details) => string> = {
  "smsTemplate.empty": () => "The SMS text is empty",
  "smsTemplate.tooLong": () => "The SMS text is too long",
  "smsTemplate.control": () => "The SMS text holds control characters",
  "smsTemplate.unknown": (d) => `Unknown placeholders in the SMS text: ${d.names ?? ""}`,
  smsSender: () => "Sender name: up to 11 Latin letters and digits, or a phone number",
};
