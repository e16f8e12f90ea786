"use client";
// Reference data: the distribution rules per service and pickup region
// (automatic offers, parking queues, the radio, dispatcher only) with their
// timeouts, attempts, radius, alerts and advance-order leads. Saving and
// deleting are audited (dispatch.saveSettings / deleteSettings).
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { EmptyState, FormModal, PageHeader } from "../ui";
import { toast } from "../toast";
import { errorInfo } from "../errors";
import { useDispatchStrings } from "./strings";

type Rule = inferRouterOutputs<AppRouter>["dispatch"]["settings"][number];
type Mode = Rule["mode"];
type Strategy = Rule["strategy"];

const NUMBERS = ["acceptSeconds", "attempts", "radiusKm", "freeLongMinutes", "batchSeconds", "fairnessWeight", "chainMinutes", "advanceLeadMinutes", "confirmLeadMinutes"] as const;
type NumberKey = (typeof NUMBERS)[number];

const DEFAULTS: Record<NumberKey, number> = {
  acceptSeconds: 20,
  attempts: 3,
  radiusKm: 5,
  freeLongMinutes: 5,
  batchSeconds: 5,
  fairnessWeight: 2,
  chainMinutes: 4,
  advanceLeadMinutes: 60,
  confirmLeadMinutes: 20,
};

function RuleDialog({ rule, onClose }: { rule: Rule | null; onClose: () => void }) {
  const { t, locale } = useI18n();
  const d = useDispatchStrings();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const lookups = useQuery(trpc.reference.lookups.queryOptions());
  const services = lookups.data?.services ?? [];
  const [serviceId, setServiceId] = useState<number | "">(rule?.serviceId ?? services[0]?.id ?? "");
  const [regionId, setRegionId] = useState<number | "">(rule?.regionId ?? "");
  const [mode, setMode] = useState<Mode>(rule?.mode ?? "AUTO");
  const [strategy, setStrategy] = useState<Strategy>(rule?.strategy ?? "BATCHED");
  const [numbers, setNumbers] = useState<Record<NumberKey, string>>(
    Object.fromEntries(NUMBERS.map((k) => [k, String(rule?.[k] ?? DEFAULTS[k])])) as Record<NumberKey, string>,
  );
  const [minBalance, setMinBalance] = useState(String((rule?.minBalance ?? -100_000) / 100));
  const [error, setError] = useState<string | null>(null);
  const cityId = services.find((s) => s.id === serviceId)?.cityId;
  const regions = (lookups.data?.regions ?? []).filter((r) => r.cityId === cityId);
  const save = useMutation(
    trpc.dispatch.saveSettings.mutationOptions({
      meta: { inlineError: true },
      onSuccess: () => {
        toast.success(d.saved);
        void queryClient.invalidateQueries({ queryKey: trpc.dispatch.settings.queryKey() });
        onClose();
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  const submit = () => {
    setError(null);
    if (serviceId === "") return;
    const parsed = Object.fromEntries(NUMBERS.map((k) => [k, Number(numbers[k].replace(",", "."))])) as Record<NumberKey, number>;
    const balance = Math.round(Number(minBalance.replace(",", ".")) * 100);
    if (Object.values(parsed).some((n) => !Number.isFinite(n)) || !Number.isFinite(balance)) return setError(t.common.none);
    save.mutate({ serviceId, regionId: regionId === "" ? null : regionId, mode, strategy, ...parsed, minBalance: balance });
  };
  const name = (x: { name: string; nameEn: string }) => (locale === "en" ? x.nameEn : x.name);
  return (
    <FormModal title={d.edit} onClose={onClose} width={680} onSubmit={submit} pending={save.isPending}>
      <div className="grid-2">
        <label className="field">
          <span>{d.service}</span>
          <select name="serviceId" value={serviceId} onChange={(e) => setServiceId(e.target.value ? Number(e.target.value) : "")} disabled={rule !== null}>
            {services.map((s) => (
              <option key={s.id} value={s.id}>
                {name(s)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{d.region}</span>
          <select name="regionId" value={regionId} onChange={(e) => setRegionId(e.target.value ? Number(e.target.value) : "")} disabled={rule !== null}>
            <option value="">{d.allRegions}</option>
            {regions.map((r) => (
              <option key={r.id} value={r.id}>
                {name(r)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{d.mode}</span>
          <select name="mode" value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
            {(Object.keys(d.modes) as Mode[]).map((m) => (
              <option key={m} value={m}>
                {d.modes[m]}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{d.strategy}</span>
          <select name="strategy" value={strategy} onChange={(e) => setStrategy(e.target.value as Strategy)}>
            {(Object.keys(d.strategies) as Strategy[]).map((s) => (
              <option key={s} value={s}>
                {d.strategies[s]}
              </option>
            ))}
          </select>
        </label>
        {NUMBERS.map((k) => (
          <label key={k} className="field">
            <span>{d[k]}</span>
            <input name={k} inputMode="decimal" value={numbers[k]} onChange={(e) => setNumbers({ ...numbers, [k]: e.target.value })} />
          </label>
        ))}
        <label className="field">
          <span>{d.minBalance}</span>
          <input name="minBalance" inputMode="decimal" value={minBalance} onChange={(e) => setMinBalance(e.target.value)} />
        </label>
      </div>
      {error ? (
        <div className="notice notice-error" role="alert">
          {error}
        </div>
      ) : null}
    </FormModal>
  );
}

export function DistributionAdmin() {
  const { t, locale } = useI18n();
  const d = useDispatchStrings();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const rules = useQuery(trpc.dispatch.settings.queryOptions());
  const lookups = useQuery(trpc.reference.lookups.queryOptions());
  const [editing, setEditing] = useState<Rule | null | "new">(null);
  const remove = useMutation(
    trpc.dispatch.deleteSettings.mutationOptions({
      onSuccess: () => {
        toast.success(d.deleted);
        void queryClient.invalidateQueries({ queryKey: trpc.dispatch.settings.queryKey() });
      },
      onError: (e) => toast.error(errorInfo(e, t).message),
    }),
  );
  const label = (list: Array<{ id: number; name: string; nameEn: string }> | undefined, id: number | null, none: string) => {
    const x = id === null ? undefined : list?.find((r) => r.id === id);
    return x ? (locale === "en" ? x.nameEn : x.name) : none;
  };
  return (
    <>
      <PageHeader title={d.title} sub={d.sub}>
        <button type="button" className="btn btn-primary" onClick={() => setEditing("new")}>
          {d.add}
        </button>
      </PageHeader>
      {(rules.data ?? []).length === 0 ? (
        <EmptyState title={d.none} />
      ) : (
        <table className="table" data-testid="distribution-rules">
          <thead>
            <tr>
              <th>{d.service}</th>
              <th>{d.region}</th>
              <th>{d.mode}</th>
              <th>{d.strategy}</th>
              <th>{d.acceptSeconds}</th>
              <th>{d.attempts}</th>
              <th>{d.radiusKm}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {(rules.data ?? []).map((r) => (
              <tr key={r.id}>
                <td>{label(lookups.data?.services, r.serviceId, String(r.serviceId))}</td>
                <td>{label(lookups.data?.regions, r.regionId, d.allRegions)}</td>
                <td>{d.modes[r.mode]}</td>
                <td>{d.strategies[r.strategy]}</td>
                <td className="num">{r.acceptSeconds}</td>
                <td className="num">{r.attempts}</td>
                <td className="num">{r.radiusKm}</td>
                <td className="row gap">
                  <button type="button" className="btn btn-small" onClick={() => setEditing(r)}>
                    {d.edit}
                  </button>
                  <button type="button" className="btn btn-small" disabled={remove.isPending} onClick={() => remove.mutate({ id: r.id })}>
                    {d.delete}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing !== null ? <RuleDialog rule={editing === "new" ? null : editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}
