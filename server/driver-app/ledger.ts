// The driver's own recent ledger entries (payments, commissions), newest
// first, for the driver's app: only the driver's entries, money in roubles.
import type { Db } from "../db";
import { kopecksToRoubles } from "../balances/money";
import type { DriverIdentity } from "./keys";

export async function recentLedger(db: Db, me: DriverIdentity, limit: number) {
  const rows = await db.driverLedgerEntry.findMany({
    where: { driverId: me.id },
    select: { id: true, kind: true, amount: true, balanceAfter: true, reason: true, orderId: true, createdAt: true },
    orderBy: { id: "desc" },
    take: limit,
  });
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    amount: kopecksToRoubles(r.amount),
    balance_after: kopecksToRoubles(r.balanceAfter),
    comment: r.reason,
    order_id: r.orderId,
    at: r.createdAt.toISOString(),
  }));
}
