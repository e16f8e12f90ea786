// The console's words for issue 34's second part, Russian and English: the
// board at 1366×768 (folding moderation strip, sortable columns), status by
// typed code with a confirmed final move, the advance-order time field, the
// parking queues and fleet counters, the alarm's volume; and the refusals of
// these services by `details.reasonKey`.

type Details = Record<string, string | number | boolean | null | undefined>;
type Reasons = Record<string, (d: Details) => string>;

export const ru = {
  shift: {
    moderationFolded: (n: number, oldest: string) => `На модерации: ${n}, самый старый ждёт ${oldest}`,
    unfold: "Развернуть",
    fold: "Свернуть",
    sortBy: (column: string) => `Сортировать по столбцу «${column}»`,
    sortAsc: "по возрастанию",
    sortDesc: "по убыванию",
    code: "Код",
    codeHint: "Код состояния и Enter",
    codeUnknown: (code: string) => `Код ${code} отсюда недоступен`,
    codeAmbiguous: "Код 95: введите 95к — клиент отказался, или 95д — снят диспетчером",
    /** The 95s told apart: the suffix typed after the code, and the label. */
    code95: { DONE_CANCELLED: "к", DONE_OPERATOR_REJECTED: "д" } as Record<string, string>,
    label95: { DONE_CANCELLED: "Снят: отказ клиента", DONE_OPERATOR_REJECTED: "Снят: решение диспетчера" } as Record<string, string>,
    confirmTitle: (id: number) => `Завершить заказ №${id}?`,
    confirmText: (state: string) => `Заказ перейдёт в состояние «${state}». Это окончательно: вернуть заказ нельзя.`,
    confirmReason: "Причина (обязательно)",
    confirmReasonMissing: "Укажите причину: хотя бы три символа",
    confirm: "Завершить заказ",
    advance: {
      label: "Время подачи",
      placeholder: "+30, 22:30, завтра 7:00",
      hint: (tz: string) => `Время города (${tz})`,
      plus: (m: number) => `+${m} мин`,
      tomorrow7: "Завтра 07:00",
      at: (when: string) => `Подача: ${when}`,
      past: "Это время уже прошло: укажите время в будущем",
      unreadable: "Не понимаю время: пример «+30», «22:30», «завтра 7:00», «26.11 9:15»",
      required: "Укажите время подачи",
    },
    fleet: {
      title: "Водители",
      onShift: "На смене",
      free: "Свободны",
      busy: "Заняты",
      soonFree: "Скоро свободны",
      soonFreeHint: (min: number) => `Везут пассажира, поездка кончается в пределах ${min} мин`,
      onBreak: "Перерыв",
      away: "Не на связи",
      queues: "Стоянки",
      noQueues: "На стоянках никого",
      queueOf: (region: string, n: number) => `${region}: ${n} в очереди`,
      manage: "Стоянки…",
    },
    queueAdmin: {
      title: "Очереди на стоянках",
      placeholder: "Позывной, Enter",
      putLabel: (stand: string) => `Поставить на стоянку ${stand}: позывной`,
      callSignRequired: "Введите позывной",
      up: (sign: string) => `${sign}: выше в очереди`,
      down: (sign: string) => `${sign}: ниже в очереди`,
      moveTo: (sign: string) => `${sign}: на другую стоянку`,
      toStand: "На стоянку…",
      remove: (sign: string) => `${sign}: снять со стоянки`,
      placed: (sign: string, stand: string, place: number) => `${sign}: ${stand}, место ${place}`,
      removed: (sign: string) => `${sign} снят со стоянки`,
    },
    volume: "Громкость тревог",
    soundSettings: "Звук тревог",
  },
};

export type NightShiftStrings = typeof ru;

export const en: NightShiftStrings = {
  shift: {
    moderationFolded: (n: number, oldest: string) => `On moderation: ${n}, the oldest waits ${oldest}`,
    unfold: "Expand",
    fold: "Collapse",
    sortBy: (column: string) => `Sort by “${column}”`,
    sortAsc: "ascending",
    sortDesc: "descending",
    code: "Code",
    codeHint: "State code and Enter",
    codeUnknown: (code: string) => `Code ${code} is not available from here`,
    codeAmbiguous: "Code 95: type 95c for client refused, or 95d for removed by the dispatcher",
    code95: { DONE_CANCELLED: "c", DONE_OPERATOR_REJECTED: "d" },
    label95: { DONE_CANCELLED: "Removed: the client refused", DONE_OPERATOR_REJECTED: "Removed: the dispatcher's decision" },
    confirmTitle: (id: number) => `Finish order #${id}?`,
    confirmText: (state: string) => `The order goes to “${state}”. This is final: the order cannot be brought back.`,
    confirmReason: "Reason (required)",
    confirmReasonMissing: "Give a reason: at least three characters",
    confirm: "Finish the order",
    advance: {
      label: "Pickup time",
      placeholder: "+30, 22:30, tomorrow 7:00",
      hint: (tz: string) => `City time (${tz})`,
      plus: (m: number) => `+${m} min`,
      tomorrow7: "Tomorrow 07:00",
      at: (when: string) => `Pickup: ${when}`,
      past: "This time has passed: give a time in the future",
      unreadable: "Cannot read the time: e.g. “+30”, “22:30”, “tomorrow 7:00”, “26.11 9:15”",
      required: "Give the pickup time",
    },
    fleet: {
      title: "Drivers",
      onShift: "On shift",
      free: "Free",
      busy: "Busy",
      soonFree: "Soon free",
      soonFreeHint: (min: number) => `Carrying a passenger, the trip ends within ${min} min`,
      onBreak: "On a break",
      away: "Away",
      queues: "Stands",
      noQueues: "Nobody on the stands",
      queueOf: (region: string, n: number) => `${region}: ${n} in the queue`,
      manage: "Stands…",
    },
    queueAdmin: {
      title: "Stand queues",
      placeholder: "Call sign, Enter",
      putLabel: (stand: string) => `Put on the stand ${stand}: call sign`,
      callSignRequired: "Type a call sign",
      up: (sign: string) => `${sign}: up the queue`,
      down: (sign: string) => `${sign}: down the queue`,
      moveTo: (sign: string) => `${sign}: to another stand`,
      toStand: "To stand…",
      remove: (sign: string) => `${sign}: off the stand`,
      placed: (sign: string, stand: string, place: number) => `${sign}: ${stand}, place ${place}`,
      removed: (sign: string) => `${sign} is off the stand`,
    },
    volume: "Alarm volume",
    soundSettings: "Alarm sound",
  },
};

export const reasonsRu: Reasons = {
  reasonRequired: () => "Окончательный переход требует причины: хотя бы три символа",
  noDriverToComplete: () => "Заказ без водителя нельзя отметить выполненным",
};

export const reasonsEn: Reasons = {
  reasonRequired: () => "A final move needs a reason: at least three characters",
  noDriverToComplete: () => "An order without a driver cannot be marked completed",
};
