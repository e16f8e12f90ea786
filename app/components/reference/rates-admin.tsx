"use client";
// Rates: prices typed in roubles (stored in kopecks), the hours a rate holds
// (none: all day; 22 to 6: a night rate), the queue it is for. Audited; the
// reference cache is forgotten on every change, so estimates follow at once.
import { useState } from "react";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { Icon } from "../icons";
import { EmptyState, ErrorNotice, FormModal, PageHeader } from "../ui";
import { toast } from "../toast";
import { errorInfo } from "../errors";
import { RateKindField } from "./rate-kind-field";
import { Check, FormError, MoneyField, ServiceSelect, moneyText, moneyValue, useAdminServices, useFirstService } from "./common";

type RateRow = inferRouterOutputs<AppRouter>["referenceAdmin"]["rates"][number];

const MONEY_FIELDS = ["pickUp", "minFare", "kmCost", "minuteCost", "standCost", "waitCost", "roundTo"] as const;
type MoneyKey = (typeof MONEY_FIELDS)[number];

function hourValue(text: string): number | null | undefined {
  if (text.trim() === "") return null;
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 && n <= 23 ? n : undefined;
}

function RateDialog({ rate, serviceId: initialService, onClose }: { rate: RateRow | null; serviceId: number | ""; onClose: () => void }) {
  const { t, locale } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const services = useAdminServices();
  const [serviceId, setServiceId] = useState<number | "">(rate?.serviceId ?? (initialService || services.data?.[0]?.id || ""));
  const [queueId, setQueueId] = useState<number | "">(rate?.queueId ?? "");
  const [name, setName] = useState(rate?.name ?? "");
  const [isBasic, setIsBasic] = useState(rate?.isBasic ?? false);
  const [kind, setKind] = useState<"FIXED" | "METERED">(rate?.kind ?? "FIXED");
  const [money, setMoney] = useState<Record<MoneyKey, string>>(() => {
    const out = {} as Record<MoneyKey, string>;
    for (const f of MONEY_FIELDS) out[f] = moneyText(rate ? rate[f] : f === "roundTo" ? 100 : 0, locale);
    return out;
  });
  const [kmStart, setKmStart] = useState(String(rate?.kmStart ?? 0));
  const [freeStandTime, setFreeStandTime] = useState(String(rate?.freeStandTime ?? 0));
  const [freeWaitTime, setFreeWaitTime] = useState(String(rate?.freeWaitTime ?? 0));
  const [startHour, setStartHour] = useState(rate?.startHour === null || rate?.startHour === undefined ? "" : String(rate.startHour));
  const [endHour, setEndHour] = useState(rate?.endHour === null || rate?.endHour === undefined ? "" : String(rate.endHour));
  const [touched, setTouched] = useState(false);
  useFirstService(serviceId, setServiceId);
  const [error, setError] = useState<string | null>(null);
  const queues = services.data?.find((s) => s.id === serviceId)?.queues ?? [];
  const labels: Record<MoneyKey, string> = {
    pickUp: t.refData.rates.pickUp,
    minFare: t.refData.rates.minFare,
    kmCost: t.refData.rates.kmCost,
    minuteCost: t.refData.rates.minuteCost,
    standCost: t.refData.rates.standCost,
    waitCost: t.refData.rates.waitCost,
    roundTo: t.refData.rates.roundTo,
  };
  const bad = MONEY_FIELDS.filter((f) => moneyValue(money[f]) === null || (f === "roundTo" && (moneyValue(money[f]) ?? 0) < 1));
  const sh = hourValue(startHour);
  const eh = hourValue(endHour);
  const hoursBad = sh === undefined || eh === undefined || (sh === null) !== (eh === null);
  const save = useMutation(
    trpc.referenceAdmin.saveRate.mutationOptions({
      meta: { inlineError: true },
      onSuccess: () => {
        toast.success(rate ? t.refData.saved : t.refData.created);
        void queryClient.invalidateQueries({ queryKey: trpc.referenceAdmin.rates.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.referenceAdmin.services.queryKey() });
        onClose();
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  const submit = () => {
    setTouched(true);
    setError(null);
    if (serviceId === "" || bad.length || hoursBad || sh === undefined || eh === undefined) {
      const first = bad[0];
      setError(first ? t.refData.rates.moneyInvalid(labels[first]) : hoursBad ? t.refData.rates.hoursInvalid : null);
      return;
    }
    const v = (f: MoneyKey) => moneyValue(money[f]) ?? 0;
    save.mutate({
      id: rate?.id,
      serviceId,
      queueId: queueId === "" ? null : queueId,
      name,
      isBasic,
      kind,
      pickUp: v("pickUp"),
      minFare: v("minFare"),
      kmCost: v("kmCost"),
      kmStart: Number(kmStart) || 0,
      minuteCost: v("minuteCost"),
      standCost: v("standCost"),
      freeStandTime: Number(freeStandTime) || 0,
      waitCost: v("waitCost"),
      freeWaitTime: Number(freeWaitTime) || 0,
      roundTo: v("roundTo"),
      startHour: sh,
      endHour: eh,
    });
  };
  const money$ = (f: MoneyKey) => (
    <MoneyField key={f} label={labels[f]} name={f} value={money[f]} invalid={touched && bad.includes(f)} onChange={(v) => setMoney((m) => ({ ...m, [f]: v }))} />
  );
  return (
    <FormModal title={rate ? t.refData.rates.editTitle(rate.name) : t.refData.rates.create} onClose={onClose} width={720} onSubmit={submit} pending={save.isPending}>
      <RateKindField value={kind} onChange={setKind} />
      <div className="grid-3">
        <label className="field">
          <span>{t.refData.name}</span>
          <input name="name" required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          <span>{t.refData.service}</span>
          <ServiceSelect
            value={serviceId}
            onChange={(id) => {
              setServiceId(id);
              setQueueId("");
            }}
          />
        </label>
        <label className="field">
          <span>{t.refData.queue}</span>
          <select name="queueId" value={queueId} onChange={(e) => setQueueId(e.target.value ? Number(e.target.value) : "")}>
            <option value="">{t.refData.allQueues}</option>
            {queues.map((q) => (
              <option key={q.id} value={q.id}>
                {q.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Check name="isBasic" label={t.refData.rates.basicLabel} checked={isBasic} onChange={setIsBasic} />
      <div className="form-section">{t.refData.rates.prices}</div>
      <div className="grid-4">
        {money$("pickUp")}
        {money$("minFare")}
        {money$("kmCost")}
        <label className="field">
          <span>{t.refData.rates.kmStart}</span>
          <input name="kmStart" type="number" min={0} value={kmStart} onChange={(e) => setKmStart(e.target.value)} />
        </label>
        {money$("minuteCost")}
        {money$("standCost")}
        {money$("waitCost")}
        {money$("roundTo")}
      </div>
      <div className="form-section">{t.refData.rates.times}</div>
      <div className="grid-4">
        <label className="field">
          <span>{t.refData.rates.freeStandTime}</span>
          <input name="freeStandTime" type="number" min={0} value={freeStandTime} onChange={(e) => setFreeStandTime(e.target.value)} />
        </label>
        <label className="field">
          <span>{t.refData.rates.freeWaitTime}</span>
          <input name="freeWaitTime" type="number" min={0} value={freeWaitTime} onChange={(e) => setFreeWaitTime(e.target.value)} />
        </label>
        <label className="field">
          <span>{t.refData.rates.from}</span>
          <input name="startHour" inputMode="numeric" value={startHour} aria-invalid={touched && hoursBad} onChange={(e) => setStartHour(e.target.value)} />
        </label>
        <label className="field">
          <span>{t.refData.rates.to}</span>
          <input name="endHour" inputMode="numeric" value={endHour} aria-invalid={touched && hoursBad} onChange={(e) => setEndHour(e.target.value)} />
        </label>
      </div>
      <span className="hint">{t.refData.rates.hoursHint}</span>
      <FormError error={error} />
      <button type="submit" hidden />
    </FormModal>
  );
}

export function RatesAdmin() {
  const { t, fmt, locale } = useI18n();
  const trpc = useTRPC();
  const [serviceId, setServiceId] = useState<number | "">("");
  const rates = useQuery(trpc.referenceAdmin.rates.queryOptions({ serviceId: serviceId || undefined }, { placeholderData: keepPreviousData }));
  const [editing, setEditing] = useState<RateRow | "new" | null>(null);
  const hours = (r: RateRow) => (r.startHour === null || r.endHour === null ? t.refData.rates.allDay : `${String(r.startHour).padStart(2, "0")}:00–${String(r.endHour).padStart(2, "0")}:00`);
  return (
    <>
      <PageHeader title={t.refData.tabs.rates}>
        <button type="button" className="btn btn-primary" onClick={() => setEditing("new")}>
          <Icon name="plus" size={16} />
          {t.refData.rates.create}
        </button>
      </PageHeader>
      <div className="ref-toolbar">
        <ServiceSelect value={serviceId} onChange={setServiceId} all={t.refData.anyService} />
      </div>
      {rates.error ? (
        <ErrorNotice error={rates.error} onRetry={() => rates.refetch()} />
      ) : null}
      <div className="table-wrap">
        <table className="table" data-testid="rates-table">
          <thead>
            <tr>
              <th>{t.refData.rates.columns.name}</th>
              <th>{t.refData.rates.columns.service}</th>
              <th>{t.refData.rates.columns.queue}</th>
              <th>{t.refData.rates.columns.hours}</th>
              <th className="num">{t.refData.rates.columns.pickUp}</th>
              <th className="num">{t.refData.rates.columns.minFare}</th>
              <th className="num">{t.refData.rates.columns.km}</th>
              <th className="num">{t.refData.rates.columns.minute}</th>
              <th className="num">{t.refData.rates.columns.wait}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rates.data?.map((r) => (
              <tr key={r.id} data-rate={r.name}>
                <td className="strong">
                  {r.name}
                  {r.isBasic ? <span className="pill pill-warn">{t.refData.rates.basic}</span> : null}
                  {r.kind === "METERED" ? <span className="pill">{t.meter.kindShort.METERED}</span> : null}
                </td>
                <td>{locale === "en" ? r.service.nameEn : r.service.name}</td>
                <td className="muted">{r.queue?.name ?? t.refData.allQueues}</td>
                <td className="nowrap">{hours(r)}</td>
                <td className="money-cell" data-field="pickUp">
                  {fmt.money(r.pickUp)}
                </td>
                <td className="money-cell">{fmt.money(r.minFare)}</td>
                <td className="money-cell" data-field="kmCost">
                  {fmt.money(r.kmCost)}
                </td>
                <td className="money-cell">{fmt.money(r.minuteCost)}</td>
                <td className="money-cell">{fmt.money(r.waitCost)}</td>
                <td className="actions">
                  <button type="button" className="btn btn-small" onClick={() => setEditing(r)}>
                    {t.refData.edit}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {rates.data?.length === 0 ? <EmptyState title={t.common.nothing} /> : null}
      </div>
      {editing ? <RateDialog rate={editing === "new" ? null : editing} serviceId={serviceId} onClose={() => setEditing(null)} /> : null}
    </>
  );
}
