// What a move of an order causes in other domains (the client's SMS and the
// integrator's callback, bonuses, the exchange, the driver's commission), as subscribers that those
// domains register at start-up (server/subscribers.ts). orders/ thereby
// imports none of them. Each runs inside the move's transaction, in the
// fixed order of SUBSCRIBERS, so its writes commit or roll back with the move.
//
// The registry lives on globalThis: the custom server and Next's bundle load
// their own copies of this module in one process, and both must see the
// subscribers. A move with a subscriber missing throws rather than silently
// skipping an effect (a process that forgot to import server/subscribers.ts).
import type { Tx } from "../db";
import type { MovedOrder } from "./move-order";

// The commission reads the amount after the bonuses are settled, as the driver's completion always did.
export const SUBSCRIBERS = ["notifications", "bonuses", "exchange", "commission"] as const;
export type MoveSubscriberName = (typeof SUBSCRIBERS)[number];
export type MoveSubscriber = (tx: Tx, moved: MovedOrder) => Promise<void>;

const key = Symbol.for("taxi.orders.moveSubscribers");
type Holder = { [key]?: Map<MoveSubscriberName, MoveSubscriber> };

function registry(): Map<MoveSubscriberName, MoveSubscriber> {
  const holder = globalThis as Holder;
  holder[key] ??= new Map();
  return holder[key];
}

/** Registers (or replaces, on a hot reload) the subscriber of that name. */
export function onOrderMoved(name: MoveSubscriberName, subscriber: MoveSubscriber): void {
  registry().set(name, subscriber);
}

export async function runMoveSubscribers(tx: Tx, moved: MovedOrder): Promise<void> {
  const subscribers = registry();
  for (const name of SUBSCRIBERS) {
    const subscriber = subscribers.get(name);
    if (!subscriber) throw new Error(`the "${name}" effects of an order's move are not registered: import server/subscribers.ts at start-up`);
    await subscriber(tx, moved);
  }
}
