// The participants' accounts in the exchange currency (kopecks, BigInt).
// Every change is a ledger entry with a unique txnId (a repeated txnId is
// ignored: payments are idempotent) and the balance after it. Balances are
// changed under row locks taken in participant id order (no deadlocks), in
// the caller's transaction.
//
// The money of a completed order (docs/exchange.md, "Money"):
//   P = the order's price on the exchange (its `fare`, set by the seller)
//   seller: SALE +P, COMMISSION -commission(P, seller's rate)
//   buyer:  PURCHASE -P, COMMISSION -commission(P, buyer's rate)
//   commission(P, bp) = floor((P * bp + 5000) / 10000): basis points,
//   rounded half up to whole kopecks. The exchange keeps both commissions.
import type { Tx } from "../db";
import { config } from "../config";
import type { ExchangeEntryKind } from "../generated/prisma/client";
import { sqlQuery } from "../db/sql";

export function commission(amount: bigint, basisPoints: number): bigint {
  if (amount <= 0n || basisPoints <= 0) return 0n;
  return (amount * BigInt(basisPoints) + 5000n) / 10000n;
}

export function commissionRate(participant: { commissionBp: number | null }): number {
  return participant.commissionBp ?? config().EXCHANGE_COMMISSION_BP;
}

export interface LedgerEntryInput {
  participantId: number;
  kind: ExchangeEntryKind;
  amount: bigint;
  txnId: string;
  exchangeOrderId?: number | null;
  reason?: string;
}

export interface PostedEntry {
  participantId: number;
  txnId: string;
  amount: bigint;
  balanceAfter: bigint;
}

/**
 * Locks the participants' rows in id order. FOR NO KEY UPDATE, not FOR
 * UPDATE: a balance change touches no key, and the KEY SHARE locks that
 * foreign-key checks take on these rows (an order or an entry referring to
 * the participant) must not deadlock with it.
 */
export async function lockParticipants(tx: Tx, ids: number[]): Promise<Map<number, bigint>> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const balances = new Map<number, bigint>();
  for (const id of unique) {
    const rows = await sqlQuery<{ id: number; balance: bigint | string | number }>(
      tx,
      `SELECT id, balance FROM exchange_participant WHERE id = $1 FOR NO KEY UPDATE`,
      [id],
    );
    const row = rows[0];
    if (row) balances.set(row.id, BigInt(row.balance));
  }
  return balances;
}

/** Posts entries (skipping txnIds already posted); returns those posted now. */
export async function postEntries(tx: Tx, entries: LedgerEntryInput[]): Promise<PostedEntry[]> {
  const wanted = entries.filter((e) => e.amount !== 0n);
  if (wanted.length === 0) return [];
  // The participants' rows are locked before the txnIds are looked up: two transactions posting the same
  // txnId (two instances seeding at once, a retried call) then wait for each other, and the second sees the
  // first's entry once it has committed (each statement reads what is committed when it starts), instead of
  // both finding none and the second failing on the unique txn_id.
  const balances = await lockParticipants(
    tx,
    wanted.map((e) => e.participantId),
  );
  const existing = new Set(
    (await tx.exchangeLedgerEntry.findMany({ where: { txnId: { in: wanted.map((e) => e.txnId) } }, select: { txnId: true } })).map(
      (e) => e.txnId,
    ),
  );
  const fresh = wanted.filter((e) => !existing.has(e.txnId));
  if (fresh.length === 0) return [];
  const posted: PostedEntry[] = [];
  for (const entry of fresh) {
    const before = balances.get(entry.participantId);
    if (before === undefined) continue;
    const after = before + entry.amount;
    balances.set(entry.participantId, after);
    await tx.exchangeParticipant.update({ where: { id: entry.participantId }, data: { balance: after }, select: { id: true } });
    await tx.exchangeLedgerEntry.create({
      data: {
        participantId: entry.participantId,
        txnId: entry.txnId,
        kind: entry.kind,
        amount: entry.amount,
        balanceAfter: after,
        exchangeOrderId: entry.exchangeOrderId ?? null,
        reason: entry.reason ?? "",
      },
      select: { id: true },
    });
    posted.push({ participantId: entry.participantId, txnId: entry.txnId, amount: entry.amount, balanceAfter: after });
  }
  return posted;
}

/** The entries of a completed order (see the header). */
export function completionEntries(input: {
  exchangeOrderId: number;
  price: bigint;
  seller: { id: number; commissionBp: number | null };
  buyer: { id: number; commissionBp: number | null };
}): LedgerEntryInput[] {
  const { exchangeOrderId: id, price, seller, buyer } = input;
  const sellerFee = commission(price, commissionRate(seller));
  const buyerFee = commission(price, commissionRate(buyer));
  return [
    { participantId: seller.id, kind: "SALE", amount: price, txnId: `order:${id}:sale`, exchangeOrderId: id, reason: "order sold" },
    { participantId: seller.id, kind: "COMMISSION", amount: -sellerFee, txnId: `order:${id}:commission:seller`, exchangeOrderId: id, reason: "commission on the sale" },
    { participantId: buyer.id, kind: "PURCHASE", amount: -price, txnId: `order:${id}:purchase`, exchangeOrderId: id, reason: "order bought" },
    { participantId: buyer.id, kind: "COMMISSION", amount: -buyerFee, txnId: `order:${id}:commission:buyer`, exchangeOrderId: id, reason: "commission on the purchase" },
  ];
}

/** A deposit or a correction by the operator (idempotent by txnId). */
export async function adjustBalance(
  tx: Tx,
  input: { participantId: number; amount: bigint; txnId: string; kind?: "DEPOSIT" | "ADJUSTMENT"; reason?: string },
): Promise<PostedEntry | undefined> {
  const [posted] = await postEntries(tx, [
    { participantId: input.participantId, kind: input.kind ?? "DEPOSIT", amount: input.amount, txnId: input.txnId, reason: input.reason ?? "" },
  ]);
  return posted;
}
