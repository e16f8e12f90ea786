// Moves the dispatcher makes by the clock, each in its own transaction under
// the order's lock and only if the order is still where the rule saw it.
import type { Db, Tx } from "../db";
import { SYSTEM_ACTOR } from "../actor";
import { lockOrder, moveOrderInTx, publishMoves, type MovedOrder } from "../orders/move-order";
import type { OrderState } from "../orders/states";

export async function moveIfStill(
  db: Db,
  orderId: number,
  from: readonly OrderState[],
  to: OrderState,
  reason: string,
  more?: (tx: Tx, moved: MovedOrder) => Promise<MovedOrder[] | void>,
): Promise<boolean> {
  const moves = await db.$transaction(async (tx) => {
    const order = await lockOrder(tx, { orderId });
    if (!from.includes(order.state as OrderState)) return [];
    const moved = await moveOrderInTx(tx, { orderId, to, actor: SYSTEM_ACTOR, reason });
    const extra = (await more?.(tx, moved)) ?? [];
    return [moved, ...extra];
  });
  publishMoves(moves);
  return moves.length > 0;
}
