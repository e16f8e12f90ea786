"use client";
// The Reports section for managers, administrators and accountants: the
// period (a shift, a day, a week, a month or a range of shift days) and the
// filters, one of five reports with its charts (recharts) and tables, and
// its CSV and XLSX downloads with the same filters (server/http/reports-export.ts).
import { useMemo, useState, type ReactNode } from "react";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatKopecksExact } from "@/shared/money";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { ErrorNotice, PageHeader } from "../ui";
import "./reports.css";

const KINDS = ["orders", "waits", "money", "drivers", "dispatch"] as const;
type Kind = (typeof KINDS)[number];
type PeriodKind = "shift" | "day" | "week" | "month" | "range";
type Source = "" | "API" | "CONSOLE" | "EXCHANGE" | "SIMULATOR";

interface Filters {
  period: PeriodKind;
  date: string;
  from: string;
  to: string;
  cityId: string;
  serviceId: string;
  regionId: string;
  driverId: string;
  source: Source;
}

/** The report query the server takes: empty filters left out. */
function toQuery(f: Filters) {
  const n = (v: string) => (v ? Number(v) : undefined);
  return {
    period: f.period,
    ...(f.period === "range" ? { from: f.from || undefined, to: f.to || undefined } : { date: f.date || undefined }),
    cityId: n(f.cityId),
    serviceId: n(f.serviceId),
    regionId: n(f.regionId),
    driverId: n(f.driverId),
    source: f.source || undefined,
  };
}

function toParams(query: ReturnType<typeof toQuery>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== "") p.set(k, String(v));
  return p.toString();
}

const COLORS = { a: "#2f6fde", b: "#17a673", c: "#e0a100", d: "#c0392b" };

function Figure({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div className="report-figure" data-testid={testId}>
      <div className="label">{label}</div>
      <div className="value">{value}</div>
    </div>
  );
}

function Table({ title, headers, rows, numeric, testId, wide, nameColumn }: { title: string; headers: string[]; rows: ReactNode[][]; numeric?: number[]; testId?: string; wide?: boolean; nameColumn?: number }) {
  const { t } = useI18n();
  return (
    <section className="report-table" aria-label={title}>
      <h2>{title}</h2>
      <div className="table-wrap">
        <table className={wide ? "table wide" : "table"} data-testid={testId}>
          <thead>
            <tr>
              {headers.map((h, i) => (
                <th key={h} className={numeric?.includes(i) ? "num" : undefined} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={headers.length} className="muted">
                  {t.reports.empty}
                </td>
              </tr>
            ) : (
              rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, i) => (
                    <td key={i} className={numeric?.includes(i) ? "num" : i === nameColumn ? "name" : undefined}>
                      {cell ?? t.reports.noData}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Chart({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card report-chart" aria-label={title}>
      <h2>{title}</h2>
      <div style={{ width: "100%", height: 260 }}>
        <ResponsiveContainer width="100%" height="100%">
          {children as React.ReactElement}
        </ResponsiveContainer>
      </div>
    </section>
  );
}

type Query = ReturnType<typeof toQuery>;

function OrdersView({ query }: { query: Query }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const r = useQuery(trpc.reports.orders.queryOptions(query, { placeholderData: keepPreviousData }));
  if (r.error) return <ErrorNotice error={r.error} testId="report-error" />;
  if (!r.data) return <p className="muted">{t.reports.loading}</p>;
  const c = t.reports.columns;
  const d = r.data.data;
  const steps = { created: c.created, offered: c.offered, assigned: c.assigned, atPickup: c.atPickup, completed: c.completed };
  return (
    <>
      <div className="report-figures">
        {(["created", "assigned", "completed", "cancelled", "lost", "open", "bought", "sold"] as const).map((k) => (
          <Figure key={k} label={c[k]} value={d.totals[k]} testId={`figure-${k}`} />
        ))}
      </div>
      <div className="report-grid">
        <Chart title={t.reports.byHour}>
          <ComposedChart data={d.byHour}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="hour" />
            <YAxis yAxisId="n" allowDecimals={false} />
            <YAxis yAxisId="s" orientation="right" />
            <Tooltip />
            <Legend />
            <Bar yAxisId="n" dataKey="created" name={c.created} fill={COLORS.a} />
            <Bar yAxisId="n" dataKey="completed" name={c.completed} fill={COLORS.b} />
            <Line yAxisId="s" dataKey="meanAcceptSeconds" name={c.meanAcceptSeconds} stroke={COLORS.c} connectNulls />
          </ComposedChart>
        </Chart>
        <Chart title={t.reports.funnel}>
          <BarChart data={d.funnel.map((s) => ({ ...s, name: steps[s.step] }))} layout="vertical" margin={{ left: 40 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis type="number" allowDecimals={false} />
            <YAxis type="category" dataKey="name" width={130} />
            <Tooltip />
            <Bar dataKey="count" name={c.count} fill={COLORS.a} />
          </BarChart>
        </Chart>
      </div>
      <Table
        title={t.reports.cancelledBy}
        headers={[c.actor, c.state, c.reason, c.count]}
        numeric={[3]}
        rows={d.cancellations.map((x) => [x.actor, x.state, x.reason, x.count])}
        testId="table-cancellations"
      />
    </>
  );
}

function WaitsView({ query }: { query: Query }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const r = useQuery(trpc.reports.waits.queryOptions(query, { placeholderData: keepPreviousData }));
  if (r.error) return <ErrorNotice error={r.error} testId="report-error" />;
  if (!r.data) return <p className="muted">{t.reports.loading}</p>;
  const c = t.reports.columns;
  const d = r.data.data;
  return (
    <>
      <Table
        title={t.reports.kinds.waits}
        headers={[c.measure, c.count, c.meanSeconds, c.p90Seconds]}
        numeric={[1, 2, 3]}
        rows={(["toOffer", "toAccept", "toPickup"] as const).map((k) => [c[k], d[k].count, d[k].meanSeconds, d[k].p90Seconds])}
        testId="table-waits"
      />
      <div className="report-grid">
        <Chart title={t.reports.byHour}>
          <LineChart data={d.byHour}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="hour" />
            <YAxis />
            <Tooltip />
            <Legend />
            <Line dataKey="meanAcceptSeconds" name={c.meanAcceptSeconds} stroke={COLORS.a} connectNulls />
            <Line dataKey="p90AcceptSeconds" name={c.p90AcceptSeconds} stroke={COLORS.d} connectNulls />
            <Line dataKey="meanPickupSeconds" name={c.meanPickupSeconds} stroke={COLORS.b} connectNulls />
          </LineChart>
        </Chart>
      </div>
      <Table
        title={t.reports.trouble}
        headers={[c.orderId, c.createdAt, c.state, c.phone, c.acceptSeconds, c.pickupSeconds, c.outcome]}
        numeric={[0, 4, 5]}
        rows={d.trouble.map((x) => [x.orderId, x.createdAt.toLocaleString(), x.state, x.phone, x.acceptSeconds, x.pickupSeconds, t.reports.outcomes[x.outcome] ?? x.outcome])}
        testId="table-trouble"
      />
    </>
  );
}

function MoneyView({ query }: { query: Query }) {
  const { t, locale } = useI18n();
  const trpc = useTRPC();
  const r = useQuery(trpc.reports.money.queryOptions(query, { placeholderData: keepPreviousData }));
  if (r.error) return <ErrorNotice error={r.error} testId="report-error" />;
  if (!r.data) return <p className="muted">{t.reports.loading}</p>;
  const c = t.reports.columns;
  const d = r.data.data;
  const money = (k: bigint) => formatKopecksExact(k, locale);
  const chart = d.byDay.map((x) => ({ day: x.day.slice(5), revenue: Number(x.revenue) / 100, commission: Number(x.commission) / 100 }));
  return (
    <>
      <div className="report-figures">
        <Figure label={c.orders} value={d.totals.orders} testId="figure-orders" />
        <Figure label={c.revenue} value={money(d.totals.revenue)} testId="figure-revenue" />
        <Figure label={c.commission} value={money(d.totals.commission)} testId="figure-commission" />
        <Figure label={c.driverEarnings} value={money(d.totals.driverEarnings)} />
        <Figure label={c.bonusesSpent} value={money(d.totals.bonusesSpent)} />
        <Figure label={c.exchangeSales} value={money(d.exchange.sales)} />
        <Figure label={c.exchangePurchases} value={money(d.exchange.purchases)} />
        <Figure label={c.exchangeCommission} value={money(d.exchange.commission)} />
      </div>
      <div className="report-grid">
        <Chart title={t.reports.revenueByDay}>
          <BarChart data={chart}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="day" />
            <YAxis />
            <Tooltip />
            <Legend />
            <Bar dataKey="revenue" name={c.revenue} fill={COLORS.a} />
            <Bar dataKey="commission" name={c.commission} fill={COLORS.c} />
          </BarChart>
        </Chart>
      </div>
      <Table
        title={t.reports.byService}
        headers={[c.service, c.orders, c.revenue, c.commission, c.bonusesSpent]}
        numeric={[1, 2, 3, 4]}
        rows={d.byService.map((x) => [`${locale === "en" ? x.serviceEn : x.service} (${x.serviceId})`, x.orders, money(x.revenue), money(x.commission), money(x.bonusesSpent)])}
        testId="table-by-service"
      />
      <Table
        title={t.reports.byDriver}
        headers={[c.callSign, c.orders, c.revenue, c.commission, c.bonusesSpent]}
        numeric={[1, 2, 3, 4]}
        rows={d.byDriver.map((x) => [x.callSign, x.orders, money(x.revenue), money(x.commission), money(x.bonusesSpent)])}
        testId="table-by-driver"
      />
    </>
  );
}

function DriversView({ query }: { query: Query }) {
  const { t, locale } = useI18n();
  const trpc = useTRPC();
  const r = useQuery(trpc.reports.drivers.queryOptions(query, { placeholderData: keepPreviousData }));
  if (r.error) return <ErrorNotice error={r.error} testId="report-error" />;
  if (!r.data) return <p className="muted">{t.reports.loading}</p>;
  const c = t.reports.columns;
  const money = (k: bigint) => formatKopecksExact(k, locale);
  const pct = (v: number | null) => (v === null ? null : `${Math.round(v * 1000) / 10}%`);
  return (
    <Table
      title={t.reports.kinds.drivers}
      headers={[c.callSign, c.name, c.shiftHours, c.offers, c.accepted, c.refused, c.timedOut, c.acceptanceRate, c.refusalRate, c.completed, c.revenue, c.commission, c.earnings, c.averageRating, c.ratings]}
      numeric={[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]}
      rows={r.data.data.drivers.map((x) => [x.callSign, x.name, x.shiftHours, x.offers, x.accepted, x.refused, x.timedOut, pct(x.acceptanceRate), pct(x.refusalRate), x.completed, money(x.revenue), money(x.commission), money(x.earnings), x.averageRating === null ? null : x.averageRating.toFixed(2), x.ratings])}
      testId="table-drivers"
      wide
      nameColumn={1}
    />
  );
}

function DispatchView({ query }: { query: Query }) {
  const { t, locale } = useI18n();
  const trpc = useTRPC();
  const r = useQuery(trpc.reports.dispatch.queryOptions(query, { placeholderData: keepPreviousData }));
  if (r.error) return <ErrorNotice error={r.error} testId="report-error" />;
  if (!r.data) return <p className="muted">{t.reports.loading}</p>;
  const c = t.reports.columns;
  const d = r.data.data;
  const pct = (v: number | null) => (v === null ? null : `${Math.round(v * 1000) / 10}%`);
  return (
    <>
      <div className="report-figures">
        <Figure label={c.orders} value={d.totals.orders} />
        <Figure label={c.offersPerOrder} value={d.totals.offersPerOrder ?? t.reports.noData} />
        <Figure label={c.shareWithin60} value={pct(d.totals.shareWithin60) ?? t.reports.noData} testId="figure-within60" />
      </div>
      <Table
        title={t.reports.kinds.dispatch}
        headers={[c.strategy, c.region, c.orders, c.offers, c.offersPerOrder, c.assigned, c.assignedWithin60, c.shareWithin60]}
        numeric={[2, 3, 4, 5, 6, 7]}
        rows={d.rows.map((x) => [x.strategy, locale === "en" ? x.regionEn : x.region, x.orders, x.offers, x.offersPerOrder, x.assigned, x.assignedWithin60, pct(x.shareWithin60)])}
        testId="table-dispatch"
      />
    </>
  );
}

function ShiftStart({ hour }: { hour: number }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(hour);
  const save = useMutation(trpc.reports.setShiftStart.mutationOptions({ onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.reports.pathKey() }) }));
  return (
    <form
      className="filters"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ hour: value });
      }}
    >
      <label>
        {t.reports.shiftStart}
        <select value={value} onChange={(e) => setValue(Number(e.target.value))} data-testid="shift-start">
          {Array.from({ length: 24 }, (_, h) => (
            <option key={h} value={h}>{`${String(h).padStart(2, "0")}:00`}</option>
          ))}
        </select>
      </label>
      <button type="submit" className="btn" disabled={save.isPending}>
        {t.reports.shiftStartSave}
      </button>
    </form>
  );
}

export function ReportsPage() {
  const { t, locale } = useI18n();
  const trpc = useTRPC();
  const me = useQuery(trpc.session.me.queryOptions());
  const choices = useQuery(trpc.reports.choices.queryOptions());
  const [kind, setKind] = useState<Kind>("orders");
  const [filters, setFilters] = useState<Filters>({ period: "shift", date: "", from: "", to: "", cityId: "", serviceId: "", regionId: "", driverId: "", source: "" });
  const [applied, setApplied] = useState(filters);
  const query = useMemo(() => toQuery(applied), [applied]);
  const params = toParams(query);
  const set = <K extends keyof Filters>(key: K) => (e: { target: { value: string } }) => setFilters((f) => ({ ...f, [key]: e.target.value as Filters[K] }));
  const name = (x: { name: string; nameEn: string }) => (locale === "en" ? x.nameEn : x.name);
  const isAdmin = me.data?.roles.includes("ADMIN") ?? false;
  const cityId = filters.cityId ? Number(filters.cityId) : undefined;
  return (
    <div className="page reports-page" data-testid="reports-page">
      <PageHeader title={t.reports.title}>
        <div className="report-downloads">
          <a className="btn" href={`/reports/${kind}.csv?${params}`} download data-testid="download-csv">
            {t.reports.download} CSV
          </a>
          <a className="btn" href={`/reports/${kind}.xlsx?${params}`} download data-testid="download-xlsx">
            {t.reports.download} XLSX
          </a>
        </div>
      </PageHeader>
      <div className="tabs" role="tablist" aria-label={t.reports.title}>
        {KINDS.map((k) => (
          <button key={k} type="button" role="tab" aria-selected={k === kind} className={`tab${k === kind ? " active" : ""}`} onClick={() => setKind(k)} data-testid={`report-tab-${k}`}>
            {t.reports.kinds[k]}
          </button>
        ))}
      </div>
      <form
        className="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(filters);
        }}
      >
        <label>
          {t.reports.period}
          <select value={filters.period} onChange={set("period")} data-testid="filter-period">
            {(["shift", "day", "week", "month", "range"] as const).map((p) => (
              <option key={p} value={p}>
                {t.reports.periods[p]}
              </option>
            ))}
          </select>
        </label>
        {filters.period === "range" ? (
          <>
            <label>
              {t.reports.from}
              <input type="date" value={filters.from} onChange={set("from")} data-testid="filter-from" />
            </label>
            <label>
              {t.reports.to}
              <input type="date" value={filters.to} onChange={set("to")} data-testid="filter-to" />
            </label>
          </>
        ) : (
          <label>
            {t.reports.date}
            <input type="date" value={filters.date} onChange={set("date")} data-testid="filter-date" />
          </label>
        )}
        <label>
          {t.reports.city}
          <select value={filters.cityId} onChange={set("cityId")}>
            <option value="">{t.reports.all}</option>
            {choices.data?.cities.map((c) => (
              <option key={c.id} value={c.id}>
                {name(c)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.reports.service}
          <select value={filters.serviceId} onChange={set("serviceId")}>
            <option value="">{t.reports.all}</option>
            {choices.data?.services.filter((s) => !cityId || s.cityId === cityId).map((s) => (
              <option key={s.id} value={s.id}>
                {name(s)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.reports.region}
          <select value={filters.regionId} onChange={set("regionId")}>
            <option value="">{t.reports.all}</option>
            {choices.data?.regions.filter((r) => !cityId || r.cityId === cityId).map((r) => (
              <option key={r.id} value={r.id}>
                {name(r)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.reports.driver}
          <select value={filters.driverId} onChange={set("driverId")}>
            <option value="">{t.reports.all}</option>
            {choices.data?.drivers.filter((d) => !cityId || d.cityId === cityId).map((d) => (
              <option key={d.id} value={d.id}>
                {d.callSign}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.reports.source}
          <select value={filters.source} onChange={set("source")} data-testid="filter-source">
            {(["", "API", "CONSOLE", "EXCHANGE", "SIMULATOR"] as const).map((s) => (
              <option key={s} value={s}>
                {t.reports.sources[s]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn btn-primary" data-testid="report-apply">
          {t.reports.apply}
        </button>
      </form>
      {isAdmin && choices.data ? <ShiftStart hour={choices.data.shiftStartHour} /> : null}
      <div role="tabpanel" data-testid={`report-${kind}`}>
        {kind === "orders" ? <OrdersView query={query} /> : null}
        {kind === "waits" ? <WaitsView query={query} /> : null}
        {kind === "money" ? <MoneyView query={query} /> : null}
        {kind === "drivers" ? <DriversView query={query} /> : null}
        {kind === "dispatch" ? <DispatchView query={query} /> : null}
      </div>
    </div>
  );
}
