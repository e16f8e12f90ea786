// Each report as sheets of rows for the exports (and the same figures the
// screen shows): headers in the reader's language; a bigint cell is money
// in kopecks (written as roubles with two decimals), a number a count,
// seconds or a share, a string text.
import { consoleStrings } from "../../shared/i18n/console";
import type { Locale } from "../../shared/locale";
import type { ReportKind } from "./query";
import type { ReportMeta, ReportOf } from "./run";

export type Cell = string | number | bigint | null;

export interface Sheet {
  name: string;
  headers: string[];
  rows: Cell[][];
}

type Strings = (typeof consoleStrings)["ru"]["reports"];
type Column = keyof Strings["columns"];

function sheet<T>(s: Strings, name: keyof Strings["sheets"], columns: Column[], items: T[], pick: (item: T) => Cell[]): Sheet {
  return { name: s.sheets[name], headers: columns.map((c) => s.columns[c]), rows: items.map(pick) };
}

export function reportSheets<K extends ReportKind>(kind: K, data: ReportOf[K], meta: ReportMeta, locale: Locale): Sheet[] {
  const s = consoleStrings[locale].reports;
  const c = s.columns;
  switch (kind) {
    case "orders": {
      const d = data as ReportOf["orders"];
      const t = d.totals;
      return [
        sheet(s, "totals", ["metric", "value"], (["created", "offered", "assigned", "atPickup", "completed", "cancelled", "lost", "open", "bought", "sold"] as const).map((k) => [c[k], t[k]]), (r) => r),
        sheet(s, "byHour", ["hour", "created", "completed", "cancelled", "lost", "meanAcceptSeconds"], d.byHour, (r) => [r.hour, r.created, r.completed, r.cancelled, r.lost, r.meanAcceptSeconds]),
        sheet(s, "cancellations", ["actor", "state", "reason", "count"], d.cancellations, (r) => [r.actor, r.state, r.reason, r.count]),
      ];
    }
    case "waits": {
      const d = data as ReportOf["waits"];
      return [
        sheet(s, "waits", ["measure", "count", "meanSeconds", "p90Seconds"], (["toOffer", "toAccept", "toPickup"] as const).map((k) => [c[k], d[k].count, d[k].meanSeconds, d[k].p90Seconds]), (r) => r),
        sheet(s, "byHour", ["hour", "orders", "meanAcceptSeconds", "p90AcceptSeconds", "meanPickupSeconds"], d.byHour, (r) => [r.hour, r.orders, r.meanAcceptSeconds, r.p90AcceptSeconds, r.meanPickupSeconds]),
        sheet(s, "trouble", ["orderId", "createdAt", "state", "phone", "acceptSeconds", "pickupSeconds", "outcome"], d.trouble, (r) => [
          r.orderId,
          r.createdAt.toISOString(),
          r.state,
          r.phone,
          r.acceptSeconds,
          r.pickupSeconds,
          s.outcomes[r.outcome] ?? r.outcome,
        ]),
      ];
    }
    case "money": {
      const d = data as ReportOf["money"];
      const t = d.totals;
      const totals: Array<[string, Cell]> = [
        [c.orders, t.orders],
        [c.revenue, t.revenue],
        [c.commission, t.commission],
        [c.driverEarnings, t.driverEarnings],
        [c.bonusesSpent, t.bonusesSpent],
        [c.bonusesEarned, t.bonusesEarned],
        [c.exchangeSales, d.exchange.sales],
        [c.exchangePurchases, d.exchange.purchases],
        [c.exchangeCommission, d.exchange.commission],
      ];
      return [
        sheet(s, "totals", ["metric", "value"], totals, (r) => r),
        sheet(s, "byDay", ["day", "orders", "revenue", "commission", "bonusesSpent"], d.byDay, (r) => [r.day, r.orders, r.revenue, r.commission, r.bonusesSpent]),
        sheet(s, "byService", ["service", "orders", "revenue", "commission", "bonusesSpent"], d.byService, (r) => [locale === "en" ? r.serviceEn : r.service, r.orders, r.revenue, r.commission, r.bonusesSpent]),
        sheet(s, "byDriver", ["callSign", "orders", "revenue", "commission", "bonusesSpent"], d.byDriver, (r) => [r.callSign, r.orders, r.revenue, r.commission, r.bonusesSpent]),
      ];
    }
    case "drivers": {
      const d = data as ReportOf["drivers"];
      return [
        sheet(
          s,
          "drivers",
          ["callSign", "name", "shiftHours", "offers", "accepted", "refused", "timedOut", "acceptanceRate", "refusalRate", "completed", "revenue", "commission", "earnings", "averageRating", "ratings"],
          d.drivers,
          (r) => [r.callSign, r.name, r.shiftHours, r.offers, r.accepted, r.refused, r.timedOut, r.acceptanceRate, r.refusalRate, r.completed, r.revenue, r.commission, r.earnings, r.averageRating, r.ratings],
        ),
      ];
    }
    case "dispatch": {
      const d = data as ReportOf["dispatch"];
      const t = d.totals;
      return [
        sheet(s, "dispatch", ["strategy", "region", "orders", "offers", "offersPerOrder", "assigned", "assignedWithin60", "shareWithin60"], [...d.rows, { strategy: c.total, region: "", regionEn: "", ...t }], (r) => [
          r.strategy,
          locale === "en" ? r.regionEn : r.region,
          r.orders,
          r.offers,
          r.offersPerOrder,
          r.assigned,
          r.assignedWithin60,
          r.shareWithin60,
        ]),
      ];
    }
  }
  void meta;
  return [];
}

/** Kopecks as roubles with two decimals, exactly ("-12.05"). */
export function roubles(kopecks: bigint): string {
  const negative = kopecks < 0n;
  const abs = negative ? -kopecks : kopecks;
  return `${negative ? "-" : ""}${abs / 100n}.${String(abs % 100n).padStart(2, "0")}`;
}
