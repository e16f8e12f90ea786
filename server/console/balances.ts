// Balances for accountants: drivers' and customers' accounts with their
// ledgers (newest first, paged), exact totals from BigInt kopecks, and a
// credit or debit with a reason through the balance services (idempotent by
// the txnId the console's form generated when it opened).
import type { Db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import type { Actor } from "../actor";
import { BalanceError } from "../errors";
import { applyDriverPayment } from "../balances/driver-balance";
import { applyCustomerPayment } from "../balances/customer-balance";
import { escapeLike } from "../db/like";
import { afterCursor, rowsFor, toPage } from "../db/paging";

export interface AccountListInput {
  q?: string;
  /** only accounts below zero */
  negative?: boolean;
  cityId?: number;
  cursor?: number | null;
  limit: number;
}

/** Sums of every driver's and every customer's balance, exact (BigInt kopecks). */
export async function balanceTotals(db: Db) {
  const [drivers, customers, driversNegative, customersNegative, driverDebt, customerDebt] = await Promise.all([
    db.driver.aggregate({ _sum: { balance: true }, _count: { _all: true } }),
    db.customer.aggregate({ _sum: { balance: true }, _count: { _all: true } }),
    db.driver.count({ where: { balance: { lt: 0 } } }),
    db.customer.count({ where: { balance: { lt: 0 } } }),
    db.driver.aggregate({ _sum: { balance: true }, where: { balance: { lt: 0 } } }),
    db.customer.aggregate({ _sum: { balance: true }, where: { balance: { lt: 0 } } }),
  ]);
  return {
    drivers: { sum: drivers._sum.balance ?? 0n, count: drivers._count._all, negative: driversNegative, debt: driverDebt._sum.balance ?? 0n },
    customers: { sum: customers._sum.balance ?? 0n, count: customers._count._all, negative: customersNegative, debt: customerDebt._sum.balance ?? 0n },
  };
}


export async function listDriverAccounts(db: Db, input: AccountListInput) {
  const q = input.q?.trim();
  const where: Prisma.DriverWhereInput = {
    ...(input.negative ? { balance: { lt: 0 } } : {}),
    ...(input.cityId ? { cityId: input.cityId } : {}),
    ...(q
      ? {
          OR: [
            { callSign: { startsWith: escapeLike(q), mode: "insensitive" } },
            { lastName: { contains: escapeLike(q), mode: "insensitive" } },
            { firstName: { contains: escapeLike(q), mode: "insensitive" } },
            ...(q.replace(/\D/g, "").length >= 3 ? [{ phone: { contains: escapeLike(q.replace(/\D/g, "")) } }] : []),
          ],
        }
      : {}),
  };
  const rows = await db.driver.findMany({
    where: afterCursor(where, input.cursor, "asc"),
    orderBy: { id: "asc" },
    take: rowsFor(input),
    select: { id: true, callSign: true, firstName: true, lastName: true, phone: true, balance: true, active: true, state: true, city: { select: { name: true, nameEn: true } } },
  });
  return toPage(rows, input.limit);
}

export async function listCustomerAccounts(db: Db, input: AccountListInput) {
  const q = input.q?.trim();
  const where: Prisma.CustomerWhereInput = {
    ...(input.negative ? { balance: { lt: 0 } } : {}),
    ...(input.cityId ? { cityId: input.cityId } : {}),
    ...(q ? { OR: [{ name: { contains: escapeLike(q), mode: "insensitive" } }, { contract: { contains: escapeLike(q), mode: "insensitive" } }] } : {}),
  };
  const rows = await db.customer.findMany({
    where: afterCursor(where, input.cursor, "asc"),
    orderBy: { id: "asc" },
    take: rowsFor(input),
    select: { id: true, name: true, contract: true, balance: true, city: { select: { name: true, nameEn: true } }, _count: { select: { orders: true } } },
  });
  return toPage(rows, input.limit);
}

/** Names of the operators behind ledger entries (actor USER), for the console. */
async function actorNames(db: Db, entries: ReadonlyArray<{ actorType: string; actorId: string | null }>) {
  const userIds = [...new Set(entries.filter((e) => e.actorType === "USER").map((e) => Number(e.actorId)).filter(Number.isInteger))];
  const keyIds = [...new Set(entries.filter((e) => e.actorType === "API_KEY").map((e) => Number(e.actorId)).filter(Number.isInteger))];
  const [users, keys] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true } }) : [],
    keyIds.length ? db.apiKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, name: true } }) : [],
  ]);
  return (type: string, id: string | null): string | null => {
    const n = Number(id);
    if (type === "USER") return users.find((u) => u.id === n)?.name ?? null;
    if (type === "API_KEY") return keys.find((k) => k.id === n)?.name ?? null;
    return null;
  };
}

export interface LedgerInput {
  id: number;
  /** the last entry id of the previous page (entries go newest first) */
  cursor?: number | null;
  limit: number;
}

export async function driverLedger(db: Db, input: LedgerInput) {
  const account = await db.driver.findUnique({
    where: { id: input.id },
    select: { id: true, callSign: true, firstName: true, lastName: true, middleName: true, phone: true, balance: true, active: true, city: { select: { name: true, nameEn: true } } },
  });
  if (!account) throw new BalanceError("NOT_FOUND", { what: "Driver", id: input.id });
  const rows = await db.driverLedgerEntry.findMany({
    where: afterCursor({ driverId: input.id }, input.cursor, "desc"),
    orderBy: { id: "desc" },
    take: rowsFor(input),
    select: { id: true, txnId: true, amount: true, balanceAfter: true, reason: true, actorType: true, actorId: true, orderId: true, createdAt: true },
  });
  const name = await actorNames(db, rows);
  const { items, nextCursor } = toPage(rows, input.limit);
  return { account, items: items.map((e) => ({ ...e, actorName: name(e.actorType, e.actorId) })), nextCursor };
}

export async function customerLedger(db: Db, input: LedgerInput) {
  const account = await db.customer.findUnique({
    where: { id: input.id },
    select: { id: true, name: true, contract: true, balance: true, city: { select: { name: true, nameEn: true } } },
  });
  if (!account) throw new BalanceError("NOT_FOUND", { what: "Customer", id: input.id });
  const rows = await db.customerLedgerEntry.findMany({
    where: afterCursor({ customerId: input.id }, input.cursor, "desc"),
    orderBy: { id: "desc" },
    take: rowsFor(input),
    select: { id: true, txnId: true, amount: true, balanceAfter: true, reason: true, actorType: true, actorId: true, createdAt: true },
  });
  const name = await actorNames(db, rows);
  const { items, nextCursor } = toPage(rows, input.limit);
  return { account, items: items.map((e) => ({ ...e, orderId: null as number | null, actorName: name(e.actorType, e.actorId) })), nextCursor };
}

export interface AdjustmentInput {
  account: "driver" | "customer";
  id: number;
  /** kopecks, positive; `direction` gives the sign */
  amount: number;
  direction: "credit" | "debit";
  reason: string;
  /** generated by the console's form when it opened: a double submit applies once */
  txnId: string;
}

/** A credit or debit by an accountant. Replies whether it was applied now (false: this txnId was already applied). */
export async function adjustBalance(db: Db, actor: Actor, input: AdjustmentInput) {
  const amount = input.direction === "debit" ? -input.amount : input.amount;
  const txnId = `console-${input.txnId}`;
  const result =
    input.account === "driver"
      ? await applyDriverPayment(db, { driverId: input.id, txnId, amount, reason: input.reason, actor })
      : await applyCustomerPayment(db, { customerId: input.id, txnId, amount, reason: input.reason, actor });
  return { id: input.id, account: input.account, amount: BigInt(amount), balance: result.balance, applied: result.applied, entryId: result.entryId };
}
