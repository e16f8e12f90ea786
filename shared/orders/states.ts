// The one order state machine of the whole system: the dispatch API, the
// console and the exchange all move orders through `canMove`.
//
// Codes and moves are those of the exchange reference ("States and
// transitions"). States that the reference names without a code get codes of
// our own, chosen among codes the reference leaves unused and documented in
// docs/dispatch-api.md ("Order states"):
//   BOUND 6, ORDER_ON_RADIO 12, PREORDER_FREE 50, PREORDER_ATTACHED 51 (the
//   reference's), PREORDER_ATTACHED_NOTIFIED 52, PREORDER_CONFIRM_REQUESTED 53,
//   PREORDER_CONFIRM_SUCCESSFUL 54, PREORDER_CONFIRM_REJECTED 55,
//   PREORDER_CONFIRM_TIMEOUT 56, PREORDER_CLIENT_CANCELLED 57,
//   ON_MODERATION 80 (real clients already read 80 as "on moderation").

export const ORDER_STATES = {
  NOT_REGISTERED: 0,
  SENT_TO_DRIVER: 1,
  CONFIRMED: 2,
  AWAITING_CLIENT: 3,
  IN_PROCESS: 4,
  RECEIVED_BY_DRIVER: 5,
  BOUND: 6,
  AWAITING_CLIENT_LONG: 7,
  FREE_LONG: 8,
  FREE: 9,
  CONFIRMED_CLIENT_NOTIFIED: 10,
  AWAITING_CLIENT_NOTIFIED: 11,
  ORDER_ON_RADIO: 12,
  NO_REPLY: 16,
  CANCELLED_BY_CLIENT: 19,
  PREORDER_FREE: 50,
  PREORDER_ATTACHED: 51,
  PREORDER_ATTACHED_NOTIFIED: 52,
  PREORDER_CONFIRM_REQUESTED: 53,
  PREORDER_CONFIRM_SUCCESSFUL: 54,
  PREORDER_CONFIRM_REJECTED: 55,
  PREORDER_CONFIRM_TIMEOUT: 56,
  PREORDER_CLIENT_CANCELLED: 57,
  ON_MODERATION: 80,
  AWAITING_PAYMENT: 87,
  REJECTED_BY_DRIVER: 88,
  AWAITING_COMPLETION: 89,
  DONE_REMOVED: 91,
  DONE_NOT_PAID: 92,
  DONE_NO_CARS: 93,
  DONE_CALL_FAILED: 94,
  DONE_CANCELLED: 95,
  DONE_OPERATOR_REJECTED: 95,
  DONE_DRIVER_REJECTED: 99,
  DONE_SUCCESSFUL: 100,
} as const;

export type OrderState = keyof typeof ORDER_STATES;
export const ALL_STATES = Object.keys(ORDER_STATES) as OrderState[];

export function codeOf(state: OrderState): number {
  return ORDER_STATES[state];
}

export function isOrderState(value: string): value is OrderState {
  return Object.prototype.hasOwnProperty.call(ORDER_STATES, value);
}

/** NOT_DONE = codes 0..89; DONE = 90..100 (the reference's groups). */
export function isDone(state: OrderState): boolean {
  return codeOf(state) >= 90;
}

export const DONE_STATES = ALL_STATES.filter(isDone);
export const NOT_DONE_STATES = ALL_STATES.filter((state) => !isDone(state));

/**
 * The state a status code names. Code 95 names two states; a request for 95
 * means the client refused (DONE_CANCELLED), the dispatcher's rejection is
 * reached by name.
 */
export function stateOfCode(code: number): OrderState | undefined {
  if (code === 95) return "DONE_CANCELLED";
  return ALL_STATES.find((state) => ORDER_STATES[state] === code);
}

const PREORDER_CONFIRMING: OrderState[] = [
  "PREORDER_ATTACHED",
  "PREORDER_ATTACHED_NOTIFIED",
  "PREORDER_CONFIRM_REQUESTED",
  "PREORDER_CONFIRM_SUCCESSFUL",
  "PREORDER_CLIENT_CANCELLED",
  "PREORDER_CONFIRM_REJECTED",
  "PREORDER_CONFIRM_TIMEOUT",
];

/**
 * Allowed previous states per target: the reference's move table. Ours on
 * top, marked: ON_MODERATION is entered at creation only, and a moderated
 * order may be sent to a driver or become an advance order.
 */
const ALLOWED_FROM: Record<OrderState, OrderState[] | "ANY_NOT_DONE"> = {
  NOT_REGISTERED: [],
  SENT_TO_DRIVER: ["NOT_REGISTERED", "FREE", "FREE_LONG", "REJECTED_BY_DRIVER", "ON_MODERATION"],
  CONFIRMED: ["SENT_TO_DRIVER", "RECEIVED_BY_DRIVER"],
  AWAITING_CLIENT: [
    "CONFIRMED",
    "BOUND",
    "CONFIRMED_CLIENT_NOTIFIED",
    "PREORDER_ATTACHED",
    "PREORDER_ATTACHED_NOTIFIED",
    "PREORDER_CONFIRM_SUCCESSFUL",
  ],
  IN_PROCESS: [
    "AWAITING_CLIENT",
    "AWAITING_CLIENT_NOTIFIED",
    "AWAITING_CLIENT_LONG",
    "CONFIRMED",
    "BOUND",
    "CONFIRMED_CLIENT_NOTIFIED",
  ],
  RECEIVED_BY_DRIVER: ["SENT_TO_DRIVER"],
  BOUND: ["FREE", "FREE_LONG"],
  AWAITING_CLIENT_LONG: ["AWAITING_CLIENT_NOTIFIED"],
  FREE_LONG: ["FREE"],
  FREE: "ANY_NOT_DONE",
  CONFIRMED_CLIENT_NOTIFIED: ["CONFIRMED"],
  AWAITING_CLIENT_NOTIFIED: ["AWAITING_CLIENT"],
  ORDER_ON_RADIO: ["NOT_REGISTERED", "FREE", "FREE_LONG"],
  NO_REPLY: [],
  CANCELLED_BY_CLIENT: [],
  PREORDER_FREE: ["NOT_REGISTERED", "ON_MODERATION", ...PREORDER_CONFIRMING],
  PREORDER_ATTACHED: ["PREORDER_FREE"],
  PREORDER_ATTACHED_NOTIFIED: ["PREORDER_ATTACHED"],
  PREORDER_CONFIRM_REQUESTED: ["PREORDER_ATTACHED", "PREORDER_ATTACHED_NOTIFIED"],
  PREORDER_CONFIRM_SUCCESSFUL: ["PREORDER_CONFIRM_REQUESTED"],
  PREORDER_CONFIRM_REJECTED: ["PREORDER_CONFIRM_REQUESTED"],
  PREORDER_CONFIRM_TIMEOUT: ["PREORDER_CONFIRM_REQUESTED"],
  PREORDER_CLIENT_CANCELLED: [
    "PREORDER_FREE",
    "PREORDER_ATTACHED",
    "PREORDER_ATTACHED_NOTIFIED",
    "PREORDER_CONFIRM_SUCCESSFUL",
    "PREORDER_CONFIRM_REQUESTED",
    "PREORDER_CONFIRM_REJECTED",
    "PREORDER_CONFIRM_TIMEOUT",
  ],
  ON_MODERATION: [],
  AWAITING_PAYMENT: ["IN_PROCESS"],
  REJECTED_BY_DRIVER: [],
  AWAITING_COMPLETION: [],
  DONE_REMOVED: "ANY_NOT_DONE",
  DONE_NOT_PAID: "ANY_NOT_DONE",
  DONE_NO_CARS: "ANY_NOT_DONE",
  DONE_CALL_FAILED: "ANY_NOT_DONE",
  DONE_CANCELLED: "ANY_NOT_DONE",
  DONE_OPERATOR_REJECTED: "ANY_NOT_DONE",
  DONE_DRIVER_REJECTED: "ANY_NOT_DONE",
  // Ours, narrower than the reference's "any NOT_DONE": completed means a
  // driver carried the passenger, so only from the states of a trip. The
  // move itself also needs that driver, for every interface: the one the
  // order holds, or an exchange executor's in the exchange's own reports
  // (server/orders/move-order.ts, server/orders/carried.ts).
  DONE_SUCCESSFUL: ["IN_PROCESS", "AWAITING_PAYMENT", "AWAITING_COMPLETION"],
};

export function canMove(from: OrderState, to: OrderState): boolean {
  const allowed = ALLOWED_FROM[to];
  if (allowed === "ANY_NOT_DONE") return !isDone(from) && from !== to;
  return allowed.includes(from);
}

/**
 * The exchange reference's own table, for orders whose trip is reported by
 * another server: there a completion ("done by the seller", "completed by the
 * executor") comes from any NOT_DONE state, because the driver who carried the
 * passenger is the reporting participant's, whose intermediate statuses the
 * reference does not require. Everything else is `canMove`.
 */
export function canMoveOnExchange(from: OrderState, to: OrderState): boolean {
  if (to === "DONE_SUCCESSFUL") return !isDone(from);
  return canMove(from, to);
}

/** Every state an order in `from` may move into, in code order. */
export function nextStates(from: OrderState): OrderState[] {
  return ALL_STATES.filter((to) => canMove(from, to));
}

/** Readable names, for replies (`name`) and the console. */
export const STATE_TITLES: Record<OrderState, { ru: string; en: string }> = {
  NOT_REGISTERED: { ru: "Не обработан", en: "Not registered" },
  SENT_TO_DRIVER: { ru: "Отправлен водителю", en: "Sent to driver" },
  CONFIRMED: { ru: "Водитель подтвердил", en: "Confirmed by driver" },
  AWAITING_CLIENT: { ru: "Водитель ждёт клиента", en: "Driver waiting for client" },
  IN_PROCESS: { ru: "Выполняется", en: "In process" },
  RECEIVED_BY_DRIVER: { ru: "Получен водителем", en: "Received by driver" },
  BOUND: { ru: "Закреплён за водителем", en: "Bound to driver" },
  AWAITING_CLIENT_LONG: { ru: "Ожидание клиента сверх бесплатного", en: "Paid waiting for client" },
  FREE_LONG: { ru: "Долго свободен", en: "Free too long" },
  FREE: { ru: "Свободный", en: "Free" },
  CONFIRMED_CLIENT_NOTIFIED: { ru: "Клиенту сообщено о машине", en: "Client told of the car" },
  AWAITING_CLIENT_NOTIFIED: { ru: "Клиенту сообщено об ожидании", en: "Client told the car is waiting" },
  ORDER_ON_RADIO: { ru: "В эфире", en: "On radio" },
  NO_REPLY: { ru: "Клиент не отвечает", en: "Client does not answer" },
  CANCELLED_BY_CLIENT: { ru: "Отменён клиентом", en: "Cancelled by client" },
  PREORDER_FREE: { ru: "Предварительный, свободный", en: "Advance order, free" },
  PREORDER_ATTACHED: { ru: "Предварительный, закреплён", en: "Advance order, attached" },
  PREORDER_ATTACHED_NOTIFIED: { ru: "Предварительный, клиенту сообщено", en: "Advance order, client told" },
  PREORDER_CONFIRM_REQUESTED: { ru: "Предварительный, запрошено подтверждение", en: "Advance order, confirmation requested" },
  PREORDER_CONFIRM_SUCCESSFUL: { ru: "Предварительный, подтверждён", en: "Advance order, confirmed" },
  PREORDER_CONFIRM_REJECTED: { ru: "Предварительный, подтверждение отклонено", en: "Advance order, confirmation rejected" },
  PREORDER_CONFIRM_TIMEOUT: { ru: "Предварительный, нет подтверждения", en: "Advance order, confirmation timed out" },
  PREORDER_CLIENT_CANCELLED: { ru: "Предварительный, клиент отказался", en: "Advance order, client cancelled" },
  ON_MODERATION: { ru: "На модерации", en: "On moderation" },
  AWAITING_PAYMENT: { ru: "Ожидает оплаты", en: "Awaiting payment" },
  REJECTED_BY_DRIVER: { ru: "Водитель отказался", en: "Rejected by driver" },
  AWAITING_COMPLETION: { ru: "Ожидает завершения", en: "Awaiting completion" },
  DONE_REMOVED: { ru: "Снят", en: "Removed" },
  DONE_NOT_PAID: { ru: "Снят: клиент не оплатил", en: "Removed: not paid" },
  DONE_NO_CARS: { ru: "Снят: нет машин", en: "Removed: no cars" },
  DONE_CALL_FAILED: { ru: "Снят: клиент не отвечает", en: "Removed: client unreachable" },
  DONE_CANCELLED: { ru: "Снят: клиент отказался", en: "Removed: client refused" },
  DONE_OPERATOR_REJECTED: { ru: "Снят диспетчером", en: "Removed by dispatcher" },
  DONE_DRIVER_REJECTED: { ru: "Снят: водитель отказался", en: "Removed: driver refused" },
  DONE_SUCCESSFUL: { ru: "Выполнен", en: "Completed" },
};

/**
 * The status's name as the original product gives it in `order/status`
 * replies and status callbacks (`name`; `%status_name%`): Russian whatever the
 * LANGUAGE, because integrators compare and show these strings. The names of
 * 4, 9, 10, 11, 80, 95 and 100 are the original's own (as integrators' code
 * records them); the others follow them in style.
 */
export const STATUS_NAMES: Record<OrderState, string> = {
  NOT_REGISTERED: "Новый",
  SENT_TO_DRIVER: "Отправлен водителю",
  CONFIRMED: "Водитель принял заказ",
  AWAITING_CLIENT: "Машина подъехала",
  IN_PROCESS: "В исполнении",
  RECEIVED_BY_DRIVER: "Получен водителем",
  BOUND: "Закреплён за водителем",
  AWAITING_CLIENT_LONG: "Платное ожидание клиента",
  FREE_LONG: "Долго свободный",
  FREE: "Свободный",
  CONFIRMED_CLIENT_NOTIFIED: "Сообщили время подъезда",
  AWAITING_CLIENT_NOTIFIED: "Сообщили о подъезде машины",
  ORDER_ON_RADIO: "В эфире",
  NO_REPLY: "Клиент не отвечает",
  CANCELLED_BY_CLIENT: "Клиент отменил заказ",
  PREORDER_FREE: "Предварительный свободный",
  PREORDER_ATTACHED: "Предварительный закреплён",
  PREORDER_ATTACHED_NOTIFIED: "Предварительный, клиенту сообщили",
  PREORDER_CONFIRM_REQUESTED: "Предварительный, запрошено подтверждение",
  PREORDER_CONFIRM_SUCCESSFUL: "Предварительный подтверждён",
  PREORDER_CONFIRM_REJECTED: "Предварительный, подтверждение отклонено",
  PREORDER_CONFIRM_TIMEOUT: "Предварительный, нет подтверждения",
  PREORDER_CLIENT_CANCELLED: "Предварительный, клиент отказался",
  ON_MODERATION: "На модерации",
  AWAITING_PAYMENT: "Ожидает оплаты",
  REJECTED_BY_DRIVER: "Водитель отказался",
  AWAITING_COMPLETION: "Ожидает завершения",
  DONE_REMOVED: "Снят с обработки",
  DONE_NOT_PAID: "Клиент не оплатил",
  DONE_NO_CARS: "Нет машин",
  DONE_CALL_FAILED: "Не дозвонились до клиента",
  DONE_CANCELLED: "Клиент отказался",
  DONE_OPERATOR_REJECTED: "Отказ диспетчера",
  DONE_DRIVER_REJECTED: "Водитель отказался от заказа",
  DONE_SUCCESSFUL: "Заказ выполнен",
};

/** The original's name of a stored state (the stored text itself if it is not one of ours). */
export function statusNameOf(state: string): string {
  return isOrderState(state) ? STATUS_NAMES[state] : state;
}

/**
 * The states an SMS tells the passenger of, and the state that records they
 * were told (server/orders/client-notified.ts): 2 -> 10 and 3 -> 11.
 */
export const TOLD_BY_SMS = {
  CONFIRMED: "CONFIRMED_CLIENT_NOTIFIED",
  AWAITING_CLIENT: "AWAITING_CLIENT_NOTIFIED",
} as const satisfies Partial<Record<OrderState, OrderState>>;

export type ToldBySmsState = keyof typeof TOLD_BY_SMS;

export function isToldBySms(state: OrderState): state is ToldBySmsState {
  return Object.prototype.hasOwnProperty.call(TOLD_BY_SMS, state);
}
