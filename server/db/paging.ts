// Keyset (cursor) paging, the one way the console's long lists page: rows
// ordered by a unique integer key, the cursor the last key of the page
// before; one row more than the page is read to know whether another follows.
// (No offsets: a list that grows while an operator scrolls neither repeats
// nor skips a row.)

export interface PageInput {
  cursor?: number | null;
  limit: number;
}

export interface Page<T> {
  items: T[];
  nextCursor: number | null;
}

/**
 * `where` narrowed to the rows after the cursor: keys below it for a list
 * newest first ("desc"), above it for oldest first ("asc").
 */
export function afterCursor<W extends object>(where: W, cursor: number | null | undefined, order: "asc" | "desc", key = "id"): W {
  if (!cursor) return where;
  // Prisma's where types accept { AND: [...] } of themselves; TypeScript cannot see that through W.
  return { AND: [where, { [key]: order === "desc" ? { lt: cursor } : { gt: cursor } }] } as unknown as W;
}

/** How many rows to read for a page (one more than it holds). */
export function rowsFor(input: PageInput): number {
  return input.limit + 1;
}

/** The page of the rows read, and the cursor of the next one (null: this was the last). */
export function toPage<T extends { id: number }>(rows: T[], limit: number): Page<T> {
  return toPageBy(rows, limit, (row) => row.id);
}

/** toPage for rows keyed by another column (an order id, say). */
export function toPageBy<T>(rows: T[], limit: number, keyOf: (row: T) => number): Page<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last !== undefined ? keyOf(last) : null };
}
