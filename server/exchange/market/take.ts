// POST /order/take: a participant buys an order offered to it (step 5).
// The database decides between participants taking one order at once: the
// order row is locked (SELECT ... FOR NO KEY UPDATE) and only an order that is free
// and has no executor can be taken; every later taker gets Gone. Buying needs
// a positive balance (Forbidden otherwise). The seller is told `taken` with
// the executor's driver; the others lose the offer (`revoked`). The executor
// gets the client's contact (which offers do not show) in the reply, and
// from then on in `order/get` and `updated`.
import type { Db } from "../../db";
import { ExchangeError } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";
import type { Executor } from "../attributes";
import { forbidden, gone } from "../errors";
import { notify, orderKey, type Notification } from "../notify";
import type { ExchangeCaller } from "../sessions";
import { announce, clientOf, lockExchangeOrder, moveExchangeOrder, openOffers, withdrawOffers } from "./common";

export interface TakeInput {
  id: number;
  /** The order's id in the executor's system. */
  orderId: string;
  arrival: number;
  executor: Executor;
}

export interface TakeResult {
  id: number;
  attributes: { client: { phone: string; name: string } };
}

export async function takeOrder(db: Db, caller: ExchangeCaller, input: TakeInput): Promise<TakeResult> {
  const taken = await db.$transaction(async (tx) => {
    const order = await lockExchangeOrder(tx, input.id);
    if (!order) throw gone(`order ${input.id} is not registered on the exchange`);
    if (order.sellerId === caller.participantId) throw forbidden("a participant cannot take its own order");
    if (order.executorId !== null) throw gone(`order ${input.id} already has an executor`);
    if (order.state !== "FREE" && order.state !== "FREE_LONG") {
      throw gone(`order ${input.id} is not open for taking (${order.state}, ${order.statusCode})`);
    }
    const offer = await tx.exchangeOffer.findUnique({
      where: { exchangeOrderId_participantId: { exchangeOrderId: order.id, participantId: caller.participantId } },
      select: { withdrawnAt: true },
    });
    if (!offer || offer.withdrawnAt) throw forbidden(`order ${input.id} is not offered to this participant`);
    const buyer = await tx.exchangeParticipant.findUniqueOrThrow({ where: { id: caller.participantId }, select: { balance: true } });
    if (buyer.balance <= 0n) {
      throw new ExchangeError("INSUFFICIENT_BALANCE", { balance: buyer.balance.toString() }, "buying needs a positive balance");
    }

    // The executing driver becomes known to the exchange (for /drivers and /driver/update).
    let driverId: string | undefined;
    const callSign = input.executor.callSign;
    if (callSign) {
      const carFields = {
        phone: input.executor.phone ?? "",
        registrationNumber: input.executor.registrationNumber ?? "",
        brand: input.executor.brand ?? "",
        model: input.executor.model ?? "",
        modelCode: input.executor.modelCode ?? "",
        color: input.executor.color ?? "",
        colorCode: input.executor.colorCode ?? "",
        carage: input.executor.autoAge ?? "",
        carClass: order.carClass,
        ...position(input.executor),
      };
      const driver = await tx.exchangeDriver.upsert({
        where: { participantId_callSign: { participantId: caller.participantId, callSign } },
        create: { participantId: caller.participantId, callSign, name: callSign, ...carFields },
        update: carFields,
        select: { id: true },
      });
      driverId = driver.id;
    }
    const executor = { ...input.executor, ...(driverId ? { id: driverId } : {}) } as Prisma.InputJsonObject;
    const others = (await openOffers(tx, order.id)).filter((p) => p !== caller.participantId);
    const moved = await moveExchangeOrder(tx, order, "SENT_TO_DRIVER", {
      participantId: caller.participantId,
      reason: "taken",
      data: {
        executorId: caller.participantId,
        executorOrderId: input.orderId,
        executor,
        arrivalMinutes: input.arrival,
        takenAt: new Date(),
      },
    });
    await withdrawOffers(tx, order.id, [caller.participantId]);
    const messages: Notification[] = [
      {
        participantId: order.sellerId,
        topic: "order/taken",
        orderingKey: orderKey(order.sellerId, order.id),
        data: {
          id: String(order.id),
          orderId: input.orderId,
          attributes: { time: { arrival: input.arrival }, executor },
        },
      },
      ...others.map(
        (participantId): Notification => ({
          participantId,
          topic: "order/revoked",
          orderingKey: orderKey(participantId, order.id),
          data: { id: order.id, reason: "taken by another participant" },
        }),
      ),
    ];
    await notify(tx, messages);
    return moved;
  });
  announce([taken]);
  return { id: taken.id, attributes: { client: clientOf(taken) } };
}

function position(executor: Executor): { lat?: number; lon?: number; speed?: number; bearing?: number } {
  const num = (s: string | undefined) => (s !== undefined && s.trim() !== "" && Number.isFinite(Number(s)) ? Number(s) : undefined);
  const out: { lat?: number; lon?: number; speed?: number; bearing?: number } = {};
  const lat = num(executor.latitude);
  const lon = num(executor.longitude);
  const speed = num(executor.speed);
  const bearing = num(executor.bearing);
  if (lat !== undefined && lat >= -90 && lat <= 90) out.lat = lat;
  if (lon !== undefined && lon >= -180 && lon <= 180) out.lon = lon;
  if (speed !== undefined) out.speed = speed;
  if (bearing !== undefined) out.bearing = bearing;
  return out;
}
