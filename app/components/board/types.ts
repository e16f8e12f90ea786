// Types of the board's data, as the tRPC router returns them.
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { InfiniteData } from "@tanstack/react-query";
import type { AppRouter } from "@/server/trpc/root";

type Outputs = inferRouterOutputs<AppRouter>;
type Inputs = inferRouterInputs<AppRouter>;

export type BoardPage = Outputs["orders"]["board"];
export type BoardRow = BoardPage["items"][number];
export type BoardData = InfiniteData<BoardPage, number | null>;
export type OrderDetails = Outputs["orders"]["get"];
export type Lookups = Outputs["reference"]["lookups"];
export type BoardFilterInput = Inputs["orders"]["board"]["filter"];

/** Replaces, removes and inserts the rows of `ids` in loaded board pages (newest first). */
export function patchBoard<D extends InfiniteData<BoardPage, unknown>>(data: D | undefined, ids: ReadonlySet<number>, rows: readonly BoardRow[]): D | undefined {
  if (!data || !data.pages.length) return data;
  const fresh = new Map(rows.map((r) => [r.id, r]));
  const placed = new Set<number>();
  const pages = data.pages.map((page) => ({
    ...page,
    items: page.items.flatMap((item) => {
      if (!ids.has(item.id)) return [item];
      const row = fresh.get(item.id);
      if (!row) return [];
      placed.add(row.id);
      return [row];
    }),
  }));
  for (const row of rows) {
    if (placed.has(row.id)) continue;
    // The first page whose range reaches down to this id; beyond the loaded
    // pages the row arrives with paging.
    const index = pages.findIndex((p) => p.nextCursor === null || p.nextCursor === undefined || row.id > p.nextCursor);
    const page = index === -1 ? undefined : pages[index];
    if (!page) continue;
    const at = page.items.findIndex((item) => item.id < row.id);
    const items = [...page.items];
    items.splice(at === -1 ? items.length : at, 0, row);
    pages[index] = { ...page, items };
  }
  return { ...data, pages };
}

/** Applies `change` to the row of order `id` wherever it is loaded. */
export function updateBoardRow<D extends InfiniteData<BoardPage, unknown>>(data: D | undefined, id: number, change: (row: BoardRow) => BoardRow): D | undefined {
  if (!data) return data;
  return { ...data, pages: data.pages.map((p) => ({ ...p, items: p.items.map((r) => (r.id === id ? change(r) : r)) })) };
}
