// Sorting the board's loaded rows by a column (issue 34): a header's button
// cycles none → ascending → descending → none. Ties keep the newest first.
import { codeOf, isOrderState } from "@/shared/orders/states";
import type { BoardRow } from "./types";

export const SORTABLE = ["id", "age", "time", "state", "region", "driver"] as const;
export type SortKey = (typeof SORTABLE)[number];
export interface BoardSort {
  key: SortKey;
  dir: "asc" | "desc";
}

export function nextSort(current: BoardSort | null, key: SortKey): BoardSort | null {
  if (current?.key !== key) return { key, dir: "asc" };
  return current.dir === "asc" ? { key, dir: "desc" } : null;
}

export function sortRows(rows: readonly BoardRow[], sort: BoardSort, ageSeconds: (r: BoardRow) => number, regionName: (r: BoardRow) => string): BoardRow[] {
  const value = (r: BoardRow): number | string => {
    switch (sort.key) {
      case "id":
        return r.id;
      case "age":
        return ageSeconds(r);
      case "time":
        return (r.preOrderTime ?? r.createdAt).getTime();
      case "state":
        return isOrderState(r.state) ? codeOf(r.state) : 999;
      case "region":
        return regionName(r);
      case "driver":
        return r.driver?.callSign ?? "";
    }
  };
  const sign = sort.dir === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true });
    return c !== 0 ? sign * c : b.id - a.id;
  });
}
