// Which order events tell the passenger what, and the text they get: the
// service's template for the event in the service's passengers' language,
// filled from the order (shared/sms/templates.ts cleans and cuts every value
// and fits the whole to SMS_MAX_PARTS). Queued in the transaction of the
// move (server/notifications/order-moved.ts) or of the timed rule
// (arriving.ts), through the outbox.
import type { Tx } from "../db";
import { config } from "../config";
import { internationalPhone } from "../orders/phone";
import type { OrderState } from "../orders/states";
import { renderSms, type SmsEvent, type SmsValues } from "../../shared/sms/templates";
import { queueSms } from "./messages";
import { serviceSms, templateFor } from "./service-settings";
import { trackingUrlOf } from "./tracking-link";

/** The moves the passenger is told of, and whether the order needs its driver for it. */
const ON_MOVE: Partial<Record<OrderState, { event: SmsEvent; needsDriver: boolean; tells?: "CONFIRMED" | "AWAITING_CLIENT" }>> = {
  CONFIRMED: { event: "ASSIGNED", needsDriver: true, tells: "CONFIRMED" },
  AWAITING_CLIENT: { event: "WAITING", needsDriver: true, tells: "AWAITING_CLIENT" },
  DONE_SUCCESSFUL: { event: "FARE", needsDriver: false },
  DONE_NO_CARS: { event: "NO_CAR", needsDriver: false },
};

const ORDER_SELECT = {
  id: true,
  phone: true,
  street: true,
  house: true,
  amount: true,
  needNotify: true,
  arrivalAt: true,
  serviceId: true,
  service: { select: { name: true, nameEn: true } },
  driver: { select: { firstName: true, phone: true, car: { select: { brand: true, model: true, color: true, regNumber: true } } } },
} as const;

/** Roubles from kopecks as a passenger reads them: 350, 350.50. */
function roubles(kopecks: number): string {
  return kopecks % 100 === 0 ? String(kopecks / 100) : (kopecks / 100).toFixed(2);
}

/** Queues the passenger's SMS for `event` of the order, when the order wants it. Returns whether one was queued. */
export async function queuePassengerSms(tx: Tx, orderId: number, event: SmsEvent, options: { needsDriver?: boolean; tells?: "CONFIRMED" | "AWAITING_CLIENT" } = {}): Promise<boolean> {
  const order = await tx.order.findUniqueOrThrow({ where: { id: orderId }, select: ORDER_SELECT });
  if (!order.needNotify || !order.phone) return false;
  if (options.needsDriver && !order.driver) return false;
  if (event === "FARE" && order.amount === null) return false;
  const settings = await serviceSms(tx, order.serviceId);
  const template = await templateFor(tx, order.serviceId, settings.language, event);
  const car = order.driver?.car;
  const minutes = order.arrivalAt ? Math.max(1, Math.ceil((order.arrivalAt.getTime() - Date.now()) / 60_000)) : null;
  const values: SmsValues = {
    car: car ? [car.color, car.brand, car.model].filter(Boolean).join(" ") : "",
    color: car?.color ?? "",
    brand: car?.brand ?? "",
    model: car?.model ?? "",
    plate: car?.regNumber ?? "",
    minutes: minutes === null ? "" : String(minutes),
    driver: order.driver?.firstName ?? "",
    driver_phone: order.driver?.phone ? internationalPhone(order.driver.phone) : "",
    fare: order.amount === null ? "" : roubles(order.amount),
    address: [order.street, order.house].filter(Boolean).join(", "),
    service: settings.language === "en" ? order.service.nameEn : order.service.name,
    tracking_url: template.includes("%tracking_url%") ? await trackingUrlOf(tx, order.id) : "",
  };
  const text = renderSms(template, values, config().SMS_MAX_PARTS);
  if (!text) return false;
  await queueSms(tx, {
    orderId: order.id,
    event,
    phone: order.phone,
    text,
    language: settings.language,
    sender: settings.sender || config().SMS_SENDER,
    ...(options.tells ? { tells: options.tells } : {}),
  });
  return true;
}

/** The SMS a move causes (a subscriber of the order's moves, in the move's transaction). */
export async function passengerSmsOnMove(tx: Tx, moved: { id: number; to: OrderState }): Promise<void> {
  const rule = ON_MOVE[moved.to];
  if (!rule) return;
  await queuePassengerSms(tx, moved.id, rule.event, { needsDriver: rule.needsDriver, ...(rule.tells ? { tells: rule.tells } : {}) });
}
