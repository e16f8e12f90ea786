// One order as the dispatcher's side panel shows it: the order, its route,
// extras, driver and car, the moves allowed from its state, and its history
// of moves with who made each (operators by name, API keys by name).
import type { Db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { OrderError } from "../errors";
import { isOrderState, nextStates, type OrderState } from "../orders/states";

export const orderDetailSelect = {
  id: true,
  uuid: true,
  state: true,
  statusCode: true,
  version: true,
  source: true,
  phone: true,
  clientName: true,
  street: true,
  house: true,
  apartment: true,
  entrance: true,
  lat: true,
  lon: true,
  dst: true,
  dstStreet: true,
  dstHouse: true,
  dstLat: true,
  dstLon: true,
  comment: true,
  systemMessage: true,
  amount: true,
  distance: true,
  routeTime: true,
  needNotify: true,
  preOrderTime: true,
  startTime: true,
  arrivalAt: true,
  cancelReason: true,
  createdAt: true,
  updatedAt: true,
  service: { select: { id: true, name: true, nameEn: true } },
  region: { select: { id: true, name: true, nameEn: true } },
  apiKey: { select: { id: true, name: true } },
  client: { select: { id: true, name: true, bonus: true } },
  customer: { select: { id: true, name: true } },
  driver: {
    select: {
      id: true,
      callSign: true,
      firstName: true,
      lastName: true,
      phone: true,
      state: true,
      car: { select: { brand: true, model: true, color: true, regNumber: true } },
    },
  },
  extras: { select: { count: true, price: true, extra: { select: { id: true, name: true, nameEn: true } } } },
  history: {
    orderBy: { id: "asc" },
    select: { id: true, fromState: true, toState: true, toCode: true, actorType: true, actorId: true, reason: true, at: true },
  },
} satisfies Prisma.OrderSelect;

export async function getOrderDetails(db: Db, id: number) {
  const order = await db.order.findUnique({ where: { id }, select: orderDetailSelect });
  if (!order) throw new OrderError("NOT_FOUND", { what: "Order", id });
  const state: OrderState | null = isOrderState(order.state) ? order.state : null;

  // Names of the actors of the history: operators and API keys.
  const userIds = new Set<number>();
  const keyIds = new Set<number>();
  const driverIds = new Set<number>();
  for (const h of order.history) {
    const n = Number(h.actorId);
    if (!Number.isInteger(n)) continue;
    if (h.actorType === "USER") userIds.add(n);
    if (h.actorType === "API_KEY") keyIds.add(n);
    if (h.actorType === "DRIVER") driverIds.add(n);
  }
  const [users, keys, drivers] = await Promise.all([
    userIds.size ? db.user.findMany({ where: { id: { in: [...userIds] } }, select: { id: true, name: true, email: true } }) : [],
    keyIds.size ? db.apiKey.findMany({ where: { id: { in: [...keyIds] } }, select: { id: true, name: true } }) : [],
    driverIds.size ? db.driver.findMany({ where: { id: { in: [...driverIds] } }, select: { id: true, callSign: true } }) : [],
  ]);
  const actorName = (type: string, id: string | null): string | null => {
    const n = Number(id);
    if (type === "USER") return users.find((u) => u.id === n)?.name ?? null;
    if (type === "API_KEY") return keys.find((k) => k.id === n)?.name ?? null;
    if (type === "DRIVER") return drivers.find((d) => d.id === n)?.callSign ?? null;
    return null;
  };
  return {
    ...order,
    // "Completed" is not offered for an order no driver holds (server/orders/move-order.ts refuses it).
    nextStates: state ? nextStates(state).filter((to) => to !== "DONE_SUCCESSFUL" || order.driver !== null) : [],
    history: order.history.map((h) => ({ ...h, actorName: actorName(h.actorType, h.actorId) })),
  };
}

export type OrderDetails = Awaited<ReturnType<typeof getOrderDetails>>;
