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
  BAD_REQUEST: (d) => `Неверный запрос${because(d, "ru")}`,
  NOT_FOUND: (d) => `${notFoundInRussian(d.what)}${d.id !== undefined ? ` (${d.id})` : ""}`,
  FORBIDDEN_MOVE: (d) =>
    `Нельзя перевести заказ из состояния ${d.from} (${d.fromCode}) в ${d.to} (${d.toCode})${d.reasonKey === "noDriverToComplete" ? ": заказ не вёз ни один водитель" : ""}`,
  BLACKLISTED: () => "Номер телефона в чёрном списке, заказ не принят",
  TOKEN_INVALID: (d) =>
    d.reason === "bonuses_gone"
      ? "Бонусы, учтённые в этой стоимости, уже потрачены или заняты другим заказом: рассчитайте стоимость заново"
      : "Неверный код гарантированной стоимости (token)",
  TOKEN_EXPIRED: () => "Срок действия кода стоимости истёк, рассчитайте стоимость заново",
  TOKEN_USED: () => "По этому коду стоимости заказ уже создан",
  ADDRESS_NOT_FOUND: (d) => `Адрес не найден: ${d.address}${d.parameter ? ` (${d.parameter})` : ""}`,
  NO_RATE: (d) => `Нет тарифа для услуги ${d.serviceId ?? ""} на это время`.replace("  ", " "),
  INSUFFICIENT_BALANCE: () => "Недостаточно средств на балансе",
  CONFLICT: (d) => `Конфликт: ${inRussian(d.reason) ?? "объект изменён другим запросом"}`,
  GONE: (d) => inRussian(d.reason) ?? "Заказ недоступен",
  NOT_ACCEPTABLE: (d) => `Операция невозможна: ${inRussian(d.reason) ?? "неподходящее состояние"}`,
  FORBIDDEN: (d) => `Операция недоступна${because(d, "ru")}`,
  UNAUTHORIZED: (d) => `Требуется авторизация${because(d, "ru")}`,
  RATE_LIMITED: () => "Слишком много запросов, повторите позже",
  BODY_TOO_LARGE: (d) => `Слишком большой запрос (более ${d.limit} байт)`,
  METHOD_NOT_ALLOWED: (d) => `Метод ${d.method} не подходит для этой операции`,
  EMPTY_REQUEST: () => "Пустой запрос",
  IDEMPOTENCY_KEY_REUSED: () => "Этот ключ Idempotency-Key уже использован для другого запроса; для нового запроса нужен новый ключ",
  NOT_APPLIED: () => "Сервис временно недоступен, запрос не выполнен; повторите его",
  INTERNAL: () => "Внутренняя ошибка сервера, повторите запрос позже",
};

// Details carry words for people in English (`what` a service could not
// find, `reason` it refused): a Russian message shows them only through the
// wordings below, matched whole, and leaves out one it has no wording for.
// A message is then wholly in one language (tests/unit/error-language.test.ts
// finds every `what` and `reason` the server writes and checks each has one).

/** "<What> не найден(а)" for each `what` the services name. */
const NOT_FOUND_RU: Record<string, string> = {
  Object: "Объект не найден",
  Order: "Заказ не найден",
  "Order of this driver": "Заказ этого водителя не найден",
  "SMS message": "SMS-сообщение не найдено",
  "Missed call": "Пропущенный звонок не найден",
  Driver: "Водитель не найден",
  Service: "Услуга не найдена",
  Region: "Район не найден",
  Customer: "Контрагент не найден",
  City: "Город не найден",
  Street: "Улица не найдена",
  Path: "Путь не найден",
  "Exchange message": "Сообщение биржи не найдено",
  "Exchange offer": "Предложение биржи не найдено",
  "Exchange order": "Заказ биржи не найден",
  "API key": "Ключ API не найден",
  User: "Пользователь не найден",
  Rate: "Тариф не найден",
  Extra: "Дополнительная услуга не найдена",
  "Dispatch settings": "Настройки распределения не найдены",
  "Blacklisted phone": "Телефон в чёрном списке не найден",
  Participant: "Участник не найден",
  Certificate: "Сертификат не найден",
  "Tracking link": "Ссылка не найдена или больше не действует",
};

export function notFoundInRussian(what: unknown): string {
  return (typeof what === "string" ? NOT_FOUND_RU[what] : undefined) ?? NOT_FOUND_RU.Object!;
}

/** Russian wordings of the reasons services give, in English, where they refuse. */
const REASONS_RU: Array<[RegExp, (...groups: string[]) => string]> = [
  [/^txn_id (.+) was already used for another payment$/, (t) => `txn_id ${t} уже использован для другого платежа`],
  [/^already delivered$/, () => "уже доставлено"],
  [/^wrong receipt secret$/, () => "неверный секрет адреса отчётов о доставке"],
  [/^no PBX is set up$/, () => "АТС не подключена"],
  [/^your profile has no extension$/, () => "в вашем профиле не указан внутренний номер"],
  [/^the PBX did not take the call: (.*)$/, (m) => `АТС не приняла звонок${m ? `: ${m}` : ""}`],
  [/^the PBX refused the call(?:: (.*))?$/, (m) => `АТС отклонила звонок${m ? `: ${m}` : ""}`],
  [/^the extension (.+) belongs to another user$/, (x) => `внутренний номер ${x} принадлежит другому пользователю`],
  [/^an exchange order is given back by moving it to DONE_DRIVER_REJECTED \(99\)$/, () => "заказ биржи возвращают переводом в DONE_DRIVER_REJECTED (99)"],
  [/^an order is in progress: complete or refuse it first$/, () => "заказ ещё выполняется: сначала завершите его или откажитесь от него"],
  [/^no position yet: report a position first$/, () => "координаты ещё неизвестны: сначала передайте координаты"],
  [/^not on shift: start a shift first$/, () => "водитель не на смене: сначала начните смену"],
  [/^the driver is busy with another order$/, () => "водитель занят другим заказом"],
  [/^the driver's position is in no region$/, () => "водитель находится вне районов"],
  [/^the offer expired$/, () => "срок предложения истёк"],
  [/^the order is being offered by automatic dispatch$/, () => "заказ предлагается автоматическим распределением"],
  [/^the order is no longer free(?: \((\S+)\))?$/, (state) => `заказ уже не свободен${state ? ` (${state})` : ""}`],
  [/^the order or the driver was offered meanwhile$/, () => "заказ или водитель тем временем получили другое предложение"],
  [/^the order was changed by someone else; reload it$/, () => "заказ изменён другим пользователем; обновите его"],
  [/^this order is an exchange offer: a driver takes it through the exchange \(takeOffer\)$/, () => "это предложение биржи: водитель берёт его через биржу (takeOffer)"],
  [/^the order is already offered to a driver$/, () => "заказ уже предложен водителю"],
  [/^the driver is (\S+)$/, (state) => `водитель в состоянии ${state}`],
  [/^the driver is answering another offer$/, () => "водитель отвечает на другое предложение"],
  [/^automatic dispatch of the order is paused$/, () => "автоматическое распределение заказа приостановлено"],
  [/^only a free driver stands in a queue$/, () => "в очереди стоит только свободный водитель"],
  [/^exchange order (\S+) is being taken already$/, (id) => `заказ биржи ${id} уже берут`],
  [/^only a free order can be sold; order (\S+) is (\S+)$/, (id, state) => `продать можно только свободный заказ; заказ ${id} в состоянии ${state}`],
  [/^order (\S+) came from the exchange and cannot be sold there$/, (id) => `заказ ${id} получен с биржи и не может быть продан на ней`],
  [/^order (\S+) is already on the exchange \((\S+)\)$/, (id, phase) => `заказ ${id} уже на бирже (${phase})`],
  [/^order (\S+) was bought on the exchange$/, (id) => `заказ ${id} куплен на бирже`],
  [/^the email (\S+) is taken$/, (email) => `адрес ${email} уже занят`],
  [/^the exchange did not confirm the take of order (\S+); it will be checked with the exchange$/, (id) => `биржа не подтвердила взятие заказа ${id}; это будет проверено у биржи`],
  [/^the local copy of exchange order (\S+) is (\S+)$/, (id, state) => `копия заказа биржи ${id} в состоянии ${state}`],
  [/^the order has no driver to take it from \((\S+)\)$/, (state) => `у заказа нет водителя, у которого его можно забрать (${state})`],
  [/^the car has arrived or the trip is over: the order can no longer be cancelled here$/, () => "машина уже подъехала или поездка закончена: отменить заказ здесь нельзя"],
  [/^a trip can be rated only after it is done$/, () => "оценить поездку можно только после её завершения"],
  [/^the time to rate this trip is over$/, () => "время для оценки этой поездки истекло"],
  [/^no car is on the order now$/, () => "сейчас у заказа нет машины"],
  [/^this trip has been rated already$/, () => "эта поездка уже оценена"],
  [/^unknown stored state (\S+)$/, (state) => `неизвестное сохранённое состояние ${state}`],
  [/^the offer of exchange order (\S+) is (\S+)$/, (id, phase) => `предложение заказа биржи ${id}: ${phase}`],
  [/^a finished order cannot be edited$/, () => "завершённый заказ нельзя изменить"],
  [/^the order is not on moderation$/, () => "заказ не на модерации"],
  [/^the driver is not active$/, () => "водитель отключён"],
  [/^the order is of a service the driver does not serve$/, () => "заказ услуги, которую водитель не обслуживает"],
  [/^bad driver app key$/, () => "неверный ключ приложения водителя"],
  [/^bad provisioning key$/, () => "неверный ключ выдачи ключей"],
  [/^the driver app key is missing$/, () => "не указан ключ приложения водителя"],
  [/^the provisioning key is missing$/, () => "не указан ключ выдачи ключей"],
  [/^unknown or replaced driver app key$/, () => "ключ приложения водителя неизвестен или заменён"],
  [/^this server takes no part in an exchange \(set EXCHANGE_URL and EXCHANGE_CLIENT_KEY\)$/, () => "сервер не участвует в бирже (задайте EXCHANGE_URL и EXCHANGE_CLIENT_KEY)"],
  [/^bonuses_gone$/, () => "бонусы уже потрачены"],
  [/^the driver app key was replaced or revoked$/, () => "ключ приложения водителя заменён или отозван"],
  [/^stale$/, () => "заказ изменён другим пользователем; обновите его"],
  [/^finished$/, () => "заказ уже завершён"],
  [/^the driver is on a break$/, () => "водитель на перерыве"],
  [/^only a free driver takes a break$/, () => "перерыв берёт только свободный водитель"],
  [/^the driver is not active$/, () => "водитель заблокирован"],
  [/^the stand is in another city$/, () => "стоянка в другом городе"],
  [/^no driver with this call sign$/, () => "водителя с таким позывным нет"],
];

/** The Russian wording of a reason, or undefined (then a Russian message leaves it out). */
export function inRussian(reason: unknown): string | undefined {
  if (typeof reason !== "string" || reason === "") return undefined;
  for (const [pattern, say] of REASONS_RU) {
    const m = pattern.exec(reason);
    if (m) return say(...m.slice(1).map((g) => g ?? ""));
  }
  return undefined;
}

/** ": <reason>" in the message's language, or nothing. */
function because(d: ErrorDetails, language: "ru" | "en"): string {
  const reason = language === "ru" ? inRussian(d.reason) : typeof d.reason === "string" && d.reason !== "" ? d.reason : undefined;
  return reason ? `: ${reason}` : "";
}

/** The expectations of the dispatch API's parameters (params.ts, the operations, the services), in Russian. */
const EXPECTED_RU: Array<[RegExp, (...groups: string[]) => string]> = [
  [/^natural number$/, () => "натуральное число"],
  [/^integer$/, () => "целое число"],
  [/^number$/, () => "число"],
  [/^number from (\S+) to (\S+)$/, (a, b) => `число от ${a} до ${b}`],
  [/^text of at most (\d+) characters$/, (n) => `текст не длиннее ${n} символов`],
  [/^text without NUL characters or unpaired surrogates$/, () => "текст без символов NUL и непарных суррогатов"],
  [/^yes or no$/, () => "yes или no"],
  [/^uuid$/, () => "uuid"],
  [/^phone number$/, () => "номер телефона"],
  [/^a phone number of 10 to 15 digits$/, () => "номер телефона из 10–15 цифр"],
  [/^card number of up to 19 digits$/, () => "номер карты до 19 цифр"],
  [/^datetime YYYY-MM-DD HH:MM:SS$/, () => "дата и время ГГГГ-ММ-ДД ЧЧ:ММ:СС"],
  [/^datetime YYYY-MM-DD HH:MM:SS or HH:MM$/, () => "дата и время ГГГГ-ММ-ДД ЧЧ:ММ:СС или время ЧЧ:ММ"],
  [/^JSON$/, () => "JSON"],
  [/^JSON without NUL characters or unpaired surrogates$/, () => "JSON без символов NUL и непарных суррогатов"],
  [/^JSON of at most (\d+) characters$/, (n) => `JSON не длиннее ${n} символов`],
  [/^a JSON array of address points$/, () => "JSON-массив точек адреса"],
  [/^a JSON array of \{street, house, lat, lon\}$/, () => "JSON-массив объектов {street, house, lat, lon}"],
  [/^extras as (.+)$/, (forms) => `дополнительные услуги в виде ${forms.replace(" or ", " или ")}`],
  [/^extras of service (\d+) \(no extra (\d+)\)$/, (service, extra) => `дополнительные услуги услуги ${service} (нет услуги ${extra})`],
  [/^a count from 1 to (\d+) for extra (\d+)$/, (max, extra) => `количество от 1 до ${max} для дополнительной услуги ${extra}`],
  [/^the extras of the estimate$/, () => "дополнительные услуги расчёта"],
  [/^the phone of the estimate \(its price uses that client's bonuses\)$/, () => "телефон расчёта (в цене учтены бонусы этого клиента)"],
  [/^the estimate's service (\d+)$/, (id) => `услуга расчёта ${id}`],
  [/^coordinates within -90\.\.90 and -180\.\.180$/, () => "координаты в пределах -90..90 и -180..180"],
  [/^at most (\d+) points$/, (n) => `не более ${n} точек`],
  [/^shorter addresses$/, () => "более короткие адреса"],
  [/^a time in the future$/, () => "время в будущем"],
  [/^a time not in the future$/, () => "время не позже текущего"],
  [/^a time within the last (\d+) hours$/, (n) => `время не раньше чем ${n} часов назад`],
  [/^a rate of the chosen service$/, () => "тариф выбранной услуги"],
  [/^a queue of the chosen service$/, () => "очередь выбранной услуги"],
  [/^a known status code$/, () => "известный код статуса"],
  [/^status code$/, () => "код статуса"],
  [/^the id of an existing region$/, () => "номер существующего района"],
  [/^a non-zero amount(?: of at most (\d+))?$/, (max) => (max ? `ненулевая сумма не больше ${max}` : "ненулевая сумма")],
  [/^a city id or name$/, () => "номер или название города"],
  [/^both coordinates of a point, or neither$/, () => "обе координаты точки или ни одной"],
  [/^a time that exists on the city's clock$/, () => "время, которое есть на часах города"],
  [/^the estimate's own time \(pre_order_time_utc\), or none$/, () => "время самого расчёта (pre_order_time_utc) или никакого"],
  [/^1 to (\d+) visible ASCII characters$/, (n) => `от 1 до ${n} видимых символов ASCII`],
  [/^ISO 8601 time$/, () => "время в формате ISO 8601"],
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
  BAD_REQUEST: (d) => `Malformed request${because(d, "en")}`,
  NOT_FOUND: (d) => `${d.what ?? "Object"} not found${d.id !== undefined ? ` (${d.id})` : ""}`,
  FORBIDDEN_MOVE: (d) =>
    `An order cannot move from ${d.from} (${d.fromCode}) to ${d.to} (${d.toCode})${d.reasonKey === "noDriverToComplete" ? ": no driver carried it" : ""}`,
  BLACKLISTED: () => "The phone number is blacklisted; the order is refused",
  TOKEN_INVALID: (d) =>
    d.reason === "bonuses_gone" ? "The bonuses this price counted on are spent or held by another order: estimate the price again" : "The price token is invalid",
  TOKEN_EXPIRED: () => "The price token has expired; estimate the price again",
  TOKEN_USED: () => "An order has already been created from this price token",
  ADDRESS_NOT_FOUND: (d) => `Address not found: ${d.address}${d.parameter ? ` (${d.parameter})` : ""}`,
  NO_RATE: (d) => `No rate for service ${d.serviceId ?? ""} at this time`.replace("  ", " "),
  INSUFFICIENT_BALANCE: () => "The balance is too low",
  CONFLICT: (d) => `Conflict: ${d.reason ?? "changed by another request"}`,
  GONE: (d) => `${d.reason ?? "The order is no longer available"}`,
  NOT_ACCEPTABLE: (d) => `Not possible: ${d.reason ?? "wrong state"}`,
  FORBIDDEN: (d) => `Operation unavailable${because(d, "en")}`,
  UNAUTHORIZED: (d) => `Unauthorised${because(d, "en")}`,
  RATE_LIMITED: () => "Too many requests; try again later",
  BODY_TOO_LARGE: (d) => `The request is too large (over ${d.limit} bytes)`,
  METHOD_NOT_ALLOWED: (d) => `Method ${d.method} does not fit this operation`,
  EMPTY_REQUEST: () => "The request is empty",
  IDEMPOTENCY_KEY_REUSED: () => "This Idempotency-Key was already used for a different request; use a new key for a new request",
  NOT_APPLIED: () => "The service is temporarily unavailable and the request was not applied; please retry it",
  INTERNAL: () => "Internal server error; please retry later",
};

export function errorMessage(code: ErrorCode, details: ErrorDetails, language: "ru" | "en"): string {
  return (language === "en" ? en : ru)[code](details);
}
