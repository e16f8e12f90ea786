// POST /order: a seller puts an order on the exchange (steps 2 to 4 of the
// selling flow). In one transaction: the order is recorded, then either
// refused ('no executor services found': no other participant executes its
// car class) or registered and offered to every interested participant;
// the notifications go to the outbox in this order: registered (seller),
// received (each interested participant), accepted (seller) — or refused.
//
// The same seller id again: an open order answers with its id and changes
// nothing (a retry is safe). A closed one (refused, revoked, cancelled,
// done) is registered again as a new exchange order (the next
// `registration` of that seller id), and the seller is told `restore`
// with the new id after `registered`: the order is back on the exchange.
import type { Db } from "../../db";
import { config } from "../../config";
import { isUniqueViolation } from "../../errors";
import { canMove, codeOf } from "../../orders/states";
import { insertRegistration, type RegistrationMessage } from "../data";
import { fareKopecks, storedAttributes, type RegistrationAttributes } from "../attributes";
import { badRequest } from "../errors";
import { discoverStale } from "../sync";
import { notify, orderKey, type Notification } from "../notify";
import type { ExchangeCaller } from "../sessions";
import {
  announce,
  clientOf,
  interestedParticipants,
  type ExchangeOrderRow,
  lockExchangeOrder,
  moveExchangeOrder,
  notificationAttributes,
  openOffersFor,
  sourceIdValue,
} from "./common";

export const REFUSED_REASON = "no executor services found";

export interface RegisterInput {
  id: string;
  type?: string;
  attributes: RegistrationAttributes;
}

export interface RegisterResult {
  id: string;
  orderId: string;
  outcome: "registered" | "refused" | "existing";
}

export async function registerOrder(db: Db, caller: ExchangeCaller, input: RegisterInput): Promise<RegisterResult> {
  if (input.type !== undefined && input.type !== "order") throw badRequest(`data.type must be "order", not "${input.type}"`, { parameter: "data.type" });
  // The usual case in one statement (server/exchange/data.ts): a new order
  // with somebody interested, or the seller's open order of this id.
  const fast = await registerInOneStatement(db, caller, input).catch((error: unknown) => {
    // Two registrations of one id at once: the loser finds the winner's order.
    if (isUniqueViolation(error)) return registerInOneStatement(db, caller, input);
    throw error;
  });
  if (fast) return fast;
  // Nobody interested: before the order is refused for want of executors,
  // the servers of logged-in participants not read lately are read again;
  // then the long way, which refuses it or registers it after all.
  const carClass = storedAttributes(input.attributes).carClass;
  if ((await interestedParticipants(db, carClass, [caller.participantId])).length === 0) await discoverStale(db, caller.participantId);
  try {
    return await attempt(db, caller, input);
  } catch (error) {
    if (isUniqueViolation(error)) return attempt(db, caller, input);
    throw error;
  }
}

/** The notifications of a registration, in their order: registered, restore (again only), received (each interested), accepted. */
function registrationMessages(order: ExchangeOrderRow, orderId: string | number): RegistrationMessage[] {
  return [
    { to: "seller", topic: "order/registered", data: { orderId } },
    { to: "seller", topic: "order/restore", data: { orderId, attributes: { client: clientOf(order) } }, againOnly: true },
    { to: "interested", topic: "order/received", data: { type: "order", attributes: notificationAttributes(order, false) } },
    { to: "seller", topic: "order/accepted", data: { orderId } },
  ];
}

async function registerInOneStatement(db: Db, caller: ExchangeCaller, input: RegisterInput): Promise<RegisterResult | undefined> {
  if (!canMove("NOT_REGISTERED", "FREE")) throw new Error("the state machine no longer registers NOT_REGISTERED -> FREE");
  const attributes = storedAttributes(input.attributes);
  const registered: ExchangeOrderRow = {
    id: 0,
    sellerId: caller.participantId,
    sourceOrderId: input.id,
    attributes: attributes,
    fare: fareKopecks(attributes.fare),
    carClass: attributes.carClass,
    state: "FREE",
    statusCode: codeOf("FREE"),
    executorId: null,
    executorOrderId: null,
    executor: null,
    arrivalMinutes: null,
    completion: null,
    cancelReason: "",
  };
  const row = await insertRegistration(db, {
    sellerId: caller.participantId,
    sourceOrderId: input.id,
    attributes,
    fare: registered.fare,
    carClass: registered.carClass,
    state: registered.state,
    statusCode: registered.statusCode,
    notRegisteredCode: codeOf("NOT_REGISTERED"),
    vendor: config().EXCHANGE_VENDOR,
    messages: registrationMessages(registered, sourceIdValue(input.id)),
  });
  if (row.existingId !== null) return { id: String(row.existingId), orderId: input.id, outcome: "existing" };
  if (row.id === null) return undefined;
  announce([{ id: row.id, state: "FREE" }]);
  return { id: String(row.id), orderId: input.id, outcome: "registered" };
}

async function attempt(db: Db, caller: ExchangeCaller, input: RegisterInput): Promise<RegisterResult> {
  const sellerId = caller.participantId;
  const result = await db.$transaction(async (tx) => {
    const latest = await tx.exchangeOrder.findFirst({
      where: { sellerId, sourceOrderId: input.id },
      select: { id: true, registration: true },
      orderBy: { registration: "desc" },
    });
    if (latest) {
      const order = await lockExchangeOrder(tx, latest.id);
      if (order && order.statusCode < 90) return { order, outcome: "existing" as const };
    }
    const registration = (latest?.registration ?? 0) + 1;

    const attributes = storedAttributes(input.attributes);
    const created = await tx.exchangeOrder.create({
      data: {
        sellerId,
        sourceOrderId: input.id,
        registration,
        attributes: attributes,
        fare: fareKopecks(attributes.fare),
        carClass: attributes.carClass,
        state: "NOT_REGISTERED",
        statusCode: codeOf("NOT_REGISTERED"),
        history: { create: { fromState: null, toState: "NOT_REGISTERED", toCode: codeOf("NOT_REGISTERED"), participantId: sellerId, reason: "sent by the seller" } },
      },
      select: { id: true },
    });
    const order = await lockExchangeOrder(tx, created.id);
    if (!order) throw badRequest("the order could not be stored");
    const interested = await interestedParticipants(tx, order.carClass, [sellerId]);
    const orderId = sourceIdValue(input.id);
    if (interested.length === 0) {
      const refused = await moveExchangeOrder(tx, order, "DONE_NO_CARS", {
        participantId: null,
        reason: REFUSED_REASON,
        data: { cancelReason: REFUSED_REASON },
      });
      await notify(tx, [{ participantId: sellerId, topic: "order/refused", orderingKey: orderKey(sellerId, order.id), data: { orderId, reason: REFUSED_REASON } }]);
      return { order: refused, outcome: "refused" as const };
    }
    const registered = await moveExchangeOrder(tx, order, "FREE", { participantId: null, reason: "registered" });
    await openOffersFor(tx, order.id, interested);
    const messages: Notification[] = [
      { participantId: sellerId, topic: "order/registered", orderingKey: orderKey(sellerId, order.id), data: { id: String(order.id), orderId } },
      ...(registration > 1
        ? [
            {
              participantId: sellerId,
              topic: "order/restore",
              orderingKey: orderKey(sellerId, order.id),
              data: { id: String(order.id), orderId, attributes: { client: clientOf(registered) } },
            } satisfies Notification,
          ]
        : []),
      ...interested.map(
        (participantId): Notification => ({
          participantId,
          topic: "order/received",
          orderingKey: orderKey(participantId, order.id),
          data: { id: String(order.id), type: "order", attributes: notificationAttributes(registered, false) },
        }),
      ),
      { participantId: sellerId, topic: "order/accepted", orderingKey: orderKey(sellerId, order.id), data: { orderId, id: String(order.id) } },
    ];
    await notify(tx, messages);
    return { order: registered, outcome: "registered" as const };
  });
  if (result.outcome !== "existing") announce([result.order]);
  return { id: String(result.order.id), orderId: input.id, outcome: result.outcome };
}
