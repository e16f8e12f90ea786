// Readable error messages per code, in the configured language. Real clients
// show `error.message` to a person, so it must read well.
import type { ErrorCode, ErrorDetails } from "../errors";

type Template = (d: ErrorDetails) => string;

const ru: Record<ErrorCode, Template> = {
  MISSING_API_KEY: () => "Не указан ключ API (api_key)",
  BAD_API_KEY: () => "Неверный или отозванный ключ API",
  MISSING_PARAMETER: (d) => `Не указан обязательный параметр ${d.parameter}`,
  BAD_PARAMETER: (d) => {
    // What is expected is written in English where it is checked; people read
    // Russian only: a phrase without a translation is left out, never shown.
    const expected = typeof d.expected === "string" ? expectedInRussian(d.expected) : undefined;
    return `Неверное значение параметра ${d.parameter}${expected ? `: ожидается ${expected}` : ""}`;
  },
  BAD_REQUEST: (d) => `Неверный запрос${d.reason ? `: ${d.reason}` : ""}`,
  NOT_FOUND: (d) => `${d.what ?? "Объект"} не найден${d.id !== undefined ? ` (${d.id})` : ""}`,
  FORBIDDEN_MOVE: (d) => `Нельзя перевести заказ из состояния ${d.from} (${d.fromCode}) в ${d.to} (${d.toCode})`,
  BLACKLISTED: () => "Номер телефона в чёрном списке, заказ не принят",
  TOKEN_INVALID: () => "Неверный код гарантированной стоимости (token)",
  TOKEN_EXPIRED: () => "Срок действия кода стоимости истёк, рассчитайте стоимость заново",
  TOKEN_USED: () => "По этому коду стоимости заказ уже создан",
  ADDRESS_NOT_FOUND: (d) => `Адрес не найден: ${d.address}${d.parameter ? ` (${d.parameter})` : ""}`,
  NO_RATE: (d) => `Нет тарифа для услуги ${d.serviceId ?? ""} на это время`.replace("  ", " "),
  INSUFFICIENT_BALANCE: () => "Недостаточно средств на балансе",
  CONFLICT: (d) => `Конфликт: ${d.reason ?? "объект изменён другим запросом"}`,
  GONE: (d) => `${d.reason ?? "Заказ недоступен"}`,
  NOT_ACCEPTABLE: (d) => `Операция невозможна: ${d.reason ?? "неподходящее состояние"}`,
  FORBIDDEN: () => "Операция недоступна",
  UNAUTHORIZED: () => "Требуется авторизация",
  RATE_LIMITED: () => "Слишком много запросов, повторите позже",
  BODY_TOO_LARGE: (d) => `Слишком большой запрос (более ${d.limit} байт)`,
  METHOD_NOT_ALLOWED: (d) => `Метод ${d.method} не подходит для этой операции`,
  EMPTY_REQUEST: () => "Пустой запрос",
  INTERNAL: () => "Внутренняя ошибка сервера, повторите запрос позже",
};

/** The expectations of the dispatch API's parameters (params.ts, the operations, the services), in Russian. */
const EXPECTED_RU: Array<[RegExp, (...groups: string[]) => string]> = [
  [/^natural number$/, () => "натуральное число"],
  [/^integer$/, () => "целое число"],
  [/^number$/, () => "число"],
  [/^number from (\S+) to (\S+)$/, (a, b) => `число от ${a} до ${b}`],
  [/^text of at most (\d+) characters$/, (n) => `текст не длиннее ${n} символов`],
  [/^text without NUL characters$/, () => "текст без символов NUL"],
  [/^yes or no$/, () => "yes или no"],
  [/^uuid$/, () => "uuid"],
  [/^phone number$/, () => "номер телефона"],
  [/^a phone number of 10 to 15 digits$/, () => "номер телефона из 10–15 цифр"],
  [/^card number of up to 19 digits$/, () => "номер карты до 19 цифр"],
  [/^datetime YYYY-MM-DD HH:MM:SS$/, () => "дата и время ГГГГ-ММ-ДД ЧЧ:ММ:СС"],
  [/^datetime YYYY-MM-DD HH:MM:SS or HH:MM$/, () => "дата и время ГГГГ-ММ-ДД ЧЧ:ММ:СС или время ЧЧ:ММ"],
  [/^JSON$/, () => "JSON"],
  [/^JSON without NUL characters$/, () => "JSON без символов NUL"],
  [/^JSON of at most (\d+) characters$/, (n) => `JSON не длиннее ${n} символов`],
  [/^a JSON array of address points$/, () => "JSON-массив точек адреса"],
  [/^a JSON array of \{street, house, lat, lon\}$/, () => "JSON-массив объектов {street, house, lat, lon}"],
  [/^extras as (.+)$/, (forms) => `дополнительные услуги в виде ${forms.replace(" or ", " или ")}`],
  [/^extras of service (\d+) \(no extra (\d+)\)$/, (service, extra) => `дополнительные услуги услуги ${service} (нет услуги ${extra})`],
  [/^a count from 1 to (\d+) for extra (\d+)$/, (max, extra) => `количество от 1 до ${max} для дополнительной услуги ${extra}`],
  [/^the extras of the estimate$/, () => "дополнительные услуги расчёта"],
  [/^the estimate's service (\d+)$/, (id) => `услуга расчёта ${id}`],
  [/^coordinates within -90\.\.90 and -180\.\.180$/, () => "координаты в пределах -90..90 и -180..180"],
  [/^at most (\d+) points$/, (n) => `не более ${n} точек`],
  [/^shorter addresses$/, () => "более короткие адреса"],
  [/^a time in the future$/, () => "время в будущем"],
  [/^a rate of the chosen service$/, () => "тариф выбранной услуги"],
  [/^a queue of the chosen service$/, () => "очередь выбранной услуги"],
  [/^a known status code$/, () => "известный код статуса"],
  [/^status code$/, () => "код статуса"],
  [/^the id of an existing region$/, () => "номер существующего района"],
  [/^a non-zero amount(?: of at most (\d+))?$/, (max) => (max ? `ненулевая сумма не больше ${max}` : "ненулевая сумма")],
  [/^a city id or name$/, () => "номер или название города"],
];

export function expectedInRussian(text: string): string | undefined {
  for (const [pattern, say] of EXPECTED_RU) {
    const m = pattern.exec(text);
    if (m) return say(...m.slice(1).map((g) => g ?? ""));
  }
  return undefined;
}

const en: Record<ErrorCode, Template> = {
  MISSING_API_KEY: () => "The API key (api_key) is missing",
  BAD_API_KEY: () => "The API key is unknown or revoked",
  MISSING_PARAMETER: (d) => `The required parameter ${d.parameter} is missing`,
  BAD_PARAMETER: (d) => `Bad value of parameter ${d.parameter}${d.expected ? `: expected ${d.expected}` : ""}`,
  BAD_REQUEST: (d) => `Malformed request${d.reason ? `: ${d.reason}` : ""}`,
  NOT_FOUND: (d) => `${d.what ?? "Object"} not found${d.id !== undefined ? ` (${d.id})` : ""}`,
  FORBIDDEN_MOVE: (d) => `An order cannot move from ${d.from} (${d.fromCode}) to ${d.to} (${d.toCode})`,
  BLACKLISTED: () => "The phone number is blacklisted; the order is refused",
  TOKEN_INVALID: () => "The price token is invalid",
  TOKEN_EXPIRED: () => "The price token has expired; estimate the price again",
  TOKEN_USED: () => "An order has already been created from this price token",
  ADDRESS_NOT_FOUND: (d) => `Address not found: ${d.address}${d.parameter ? ` (${d.parameter})` : ""}`,
  NO_RATE: (d) => `No rate for service ${d.serviceId ?? ""} at this time`.replace("  ", " "),
  INSUFFICIENT_BALANCE: () => "The balance is too low",
  CONFLICT: (d) => `Conflict: ${d.reason ?? "changed by another request"}`,
  GONE: (d) => `${d.reason ?? "The order is no longer available"}`,
  NOT_ACCEPTABLE: (d) => `Not possible: ${d.reason ?? "wrong state"}`,
  FORBIDDEN: () => "Operation unavailable",
  UNAUTHORIZED: () => "Unauthorised",
  RATE_LIMITED: () => "Too many requests; try again later",
  BODY_TOO_LARGE: (d) => `The request is too large (over ${d.limit} bytes)`,
  METHOD_NOT_ALLOWED: (d) => `Method ${d.method} does not fit this operation`,
  EMPTY_REQUEST: () => "The request is empty",
  INTERNAL: () => "Internal server error; please retry later",
};

export function errorMessage(code: ErrorCode, details: ErrorDetails, language: "ru" | "en"): string {
  return (language === "en" ? en : ru)[code](details);
}
