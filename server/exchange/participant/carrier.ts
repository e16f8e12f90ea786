// The exchange's answer to "who carried this order?" (server/orders/carried.ts):
// an order of ours sold on the exchange was carried by the executor's driver
// when a participant took it (the link keeps the executor until a
// rejectdriver) or when the exchange reported the executor's completion
// (`completed`: the reference's "completed by an exchange driver", with the
// distance the driver travelled). Registered at start-up (server/subscribers.ts)
// and asked only for the exchange's own reports (actor EXCHANGE).
import type { Tx } from "../../db";

export async function carriedByExecutor(tx: Tx, orderId: number): Promise<boolean> {
  const link = await tx.exchangeLink.findUnique({ where: { orderId }, select: { role: true, executor: true, completion: true } });
  return link?.role === "SOLD" && (link.executor !== null || link.completion !== null);
}
