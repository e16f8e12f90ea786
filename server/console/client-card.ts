// The client's card (issue 34): everything a dispatcher needs about a caller
// in one place — who they are, their bonus balance, whether the number is
// blacklisted, what they have ordered (in progress first), how it ended,
// their usual addresses and the ratings they gave. Read by phone, in the
// form the operator types it (normalised to the stored E.164). The calls
// come from the phone's own log (phone.log).
import type { Db } from "../db";
import { normalizePhone } from "../orders/phone";
import { DONE_STATES, NOT_DONE_STATES } from "../../shared/orders/states";
import { recentAddresses } from "./recent-addresses";

const ORDERS_SHOWN = 50;
const IN_PROGRESS: ReadonlySet<string> = new Set(NOT_DONE_STATES);
const BONUS_ENTRIES_SHOWN = 20;

export async function clientCard(db: Db, input: { phone: string }) {
  const phone = normalizePhone(input.phone);
  if (!phone) return { phone: input.phone.trim(), recognised: false as const };
  const [client, blacklisted, byState, orders, recent] = await Promise.all([
    db.client.findUnique({
      where: { phone },
      select: {
        name: true,
        bonus: true,
        createdAt: true,
        bonusLog: { orderBy: { id: "desc" }, take: BONUS_ENTRIES_SHOWN, select: { id: true, amount: true, bonusAfter: true, reason: true, orderId: true, createdAt: true } },
      },
    }),
    db.blacklistedPhone.findUnique({ where: { phone }, select: { reason: true, createdAt: true } }),
    db.order.groupBy({ by: ["state"], where: { phone }, _count: { _all: true } }),
    db.order.findMany({
      where: { phone },
      orderBy: { id: "desc" },
      take: ORDERS_SHOWN,
      select: {
        id: true,
        clientName: true,
        state: true,
        statusCode: true,
        createdAt: true,
        preOrderTime: true,
        street: true,
        house: true,
        dstStreet: true,
        dstHouse: true,
        dst: true,
        amount: true,
        cancelReason: true,
        source: true,
        service: { select: { name: true, nameEn: true } },
        driver: { select: { callSign: true } },
        tripRating: { select: { stars: true } },
      },
    }),
    recentAddresses(db, { phone, limit: 8 }),
  ]);
  const count = (states: readonly string[]) => byState.filter((s) => states.includes(s.state)).reduce((sum, s) => sum + s._count._all, 0);
  const active = orders.filter((o) => IN_PROGRESS.has(o.state));
  return {
    phone,
    recognised: true as const,
    // The name the client was saved with, else the one given with the latest order.
    name: client?.name || orders.find((o) => o.clientName)?.clientName || "",
    bonus: client?.bonus ?? 0,
    clientSince: client?.createdAt ?? null,
    blacklisted: blacklisted ? { reason: blacklisted.reason, since: blacklisted.createdAt } : null,
    totals: {
      orders: count([...DONE_STATES, ...NOT_DONE_STATES]),
      active: count(NOT_DONE_STATES),
      completed: count(["DONE_SUCCESSFUL"]),
      cancelled: count(DONE_STATES.filter((s) => s !== "DONE_SUCCESSFUL")),
    },
    // In progress first (a caller asking "where is my car?"), then the newest.
    orders: [...active, ...orders.filter((o) => !IN_PROGRESS.has(o.state))].map((o) => ({
      id: o.id,
      state: o.state,
      statusCode: o.statusCode,
      createdAt: o.createdAt,
      preOrderTime: o.preOrderTime,
      from: [o.street, o.house].filter(Boolean).join(" "),
      to: [o.dstStreet, o.dstHouse].filter(Boolean).join(" ") || o.dst,
      amount: o.amount,
      cancelReason: o.cancelReason,
      source: o.source,
      service: o.service,
      driverCallSign: o.driver?.callSign ?? null,
      stars: o.tripRating?.stars ?? null,
    })),
    addresses: recent.addresses.map((a) => ({ street: a.street, house: a.house, role: a.role })),
    bonusLog: client?.bonusLog ?? [],
  };
}
