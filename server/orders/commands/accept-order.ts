// A driver accepts an order: the live offer made to them if there is one
// (server/dispatch/answer-offer.ts), else a free order taken by themselves.
import type { Db } from "../../db";
import { acceptOffer } from "../../dispatch/answer-offer";
import type { OrderDriver } from "./driver-party";
import { takeFreeOrder, type TakeFreeOrderInput } from "./take-free-order";

export async function acceptOrder(db: Db, me: OrderDriver, input: TakeFreeOrderInput): Promise<{ orderId: number }> {
  const accepted = await acceptOffer(db, me, { uuid: input.uuid }, input.arrivalMinutes);
  return accepted ?? takeFreeOrder(db, me, input);
}
