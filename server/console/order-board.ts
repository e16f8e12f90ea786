// Read model of the order board: server-side filtering and cursor paging
// (newest first, by id), the moderation queue, per-group counts, and the
// rows of given orders under the board's filter (for live patching).
import type { Db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { GROUP_STATES, groupOfState, type BoardGroup, type ParsedBoardFilter } from "../../shared/orders/board-filter";
import { isOrderState, NOT_DONE_STATES } from "../orders/states";
import { escapeLike } from "../db/like";
import { afterCursor, rowsFor, toPage } from "../db/paging";

export const boardRowSelect = {
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
  dst: true,
  dstStreet: true,
  dstHouse: true,
  comment: true,
  amount: true,
  preOrderTime: true,
  createdAt: true,
  updatedAt: true,
  service: { select: { id: true, name: true, nameEn: true } },
  region: { select: { id: true, name: true, nameEn: true } },
  driver: { select: { id: true, callSign: true } },
} satisfies Prisma.OrderSelect;

export type BoardRow = Prisma.OrderGetPayload<{ select: typeof boardRowSelect }>;

/** Phone digits as stored (11 digits beginning with 7): 8XXXXXXXXXX → 7XXXXXXXXXX. */
function phoneDigits(q: string): string {
  const digits = q.replace(/\D/g, "");
  return digits.length === 11 && digits.startsWith("8") ? `7${digits.slice(1)}` : digits;
}

export function boardWhere(filter: ParsedBoardFilter): Prisma.OrderWhereInput {
  const and: Prisma.OrderWhereInput[] = [];
  const states = GROUP_STATES[filter.group];
  if (filter.state) and.push({ state: filter.state });
  else if (states) and.push({ state: { in: [...states] } });
  if (filter.serviceId) and.push({ serviceId: filter.serviceId });
  if (filter.regionId) and.push({ regionId: filter.regionId });
  const q = filter.q?.trim();
  const byNumber = q ? /^#(\d{1,9})$/.exec(q) : null;
  if (byNumber?.[1]) {
    // "#123": that order only.
    and.push({ id: Number(byNumber[1]) });
  } else if (q) {
    const or: Prisma.OrderWhereInput[] = [
      { street: { contains: escapeLike(q), mode: "insensitive" } },
      { dst: { contains: escapeLike(q), mode: "insensitive" } },
      { dstStreet: { contains: escapeLike(q), mode: "insensitive" } },
      { clientName: { contains: escapeLike(q), mode: "insensitive" } },
      { driver: { callSign: { equals: q, mode: "insensitive" } } },
    ];
    const digits = phoneDigits(q);
    if (digits.length >= 3) or.push({ phone: { contains: escapeLike(digits) } });
    const number = /^(\d{1,9})$/.exec(q);
    if (number?.[1]) or.push({ id: Number(number[1]) });
    and.push({ OR: or });
  }
  return and.length ? { AND: and } : {};
}

export async function listBoardOrders(db: Db, input: { filter: ParsedBoardFilter; cursor?: number | null; limit: number }) {
  const where = boardWhere(input.filter);
  const rows = await db.order.findMany({
    where: afterCursor(where, input.cursor, "desc"),
    orderBy: { id: "desc" },
    take: rowsFor(input),
    select: boardRowSelect,
  });
  return toPage(rows, input.limit);
}

/** The rows among `ids` that match the filter (the others left it or never were on it). */
export async function boardRowsByIds(db: Db, input: { filter: ParsedBoardFilter; ids: number[] }) {
  if (!input.ids.length) return [];
  return db.order.findMany({
    where: { AND: [boardWhere(input.filter), { id: { in: input.ids } }] },
    orderBy: { id: "desc" },
    select: boardRowSelect,
  });
}

/** Orders waiting for a dispatcher's decision, oldest first. */
export async function listModerationQueue(db: Db, limit = 100) {
  const [items, total] = await Promise.all([
    db.order.findMany({ where: { state: "ON_MODERATION" }, orderBy: { id: "asc" }, take: limit, select: boardRowSelect }),
    db.order.count({ where: { state: "ON_MODERATION" } }),
  ]);
  return { items, total };
}

export type GroupCounts = Record<Exclude<BoardGroup, "done" | "all">, number>;

/** How many unfinished orders each group holds (the board's tab badges). */
export async function countBoardGroups(db: Db): Promise<GroupCounts> {
  const grouped = await db.order.groupBy({ by: ["state"], where: { state: { in: NOT_DONE_STATES } }, _count: { _all: true } });
  const counts: GroupCounts = { active: 0, moderation: 0, free: 0, assigned: 0, preorders: 0 };
  for (const row of grouped) {
    if (!isOrderState(row.state)) continue;
    const n = row._count._all;
    counts.active += n;
    const group = groupOfState(row.state);
    if (group !== "done") counts[group] += n;
  }
  return counts;
}
