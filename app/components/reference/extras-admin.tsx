"use client";
// Extras of a service (child seat, pet, luggage): code, names, price in
// roubles (stored in kopecks), several allowed, on by default, the queue.
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
import { Check, FormError, MoneyField, ServiceSelect, moneyText, moneyValue, useAdminServices, useFirstService } from "./common";

type ExtraRow = inferRouterOutputs<AppRouter>["referenceAdmin"]["extras"][number];

function ExtraDialog({ extra, serviceId: initialService, onClose }: { extra: ExtraRow | null; serviceId: number | ""; onClose: () => void }) {
  const { t, locale } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const services = useAdminServices();
  const [serviceId, setServiceId] = useState<number | "">(extra?.serviceId ?? (initialService || services.data?.[0]?.id || ""));
  const [queueId, setQueueId] = useState<number | "">(extra?.queueId ?? "");
  const [code, setCode] = useState(extra?.code ?? "");
  const [name, setName] = useState(extra?.name ?? "");
  const [nameEn, setNameEn] = useState(extra?.nameEn ?? "");
  const [shortName, setShortName] = useState(extra?.shortName ?? "");
  const [price, setPrice] = useState(moneyText(extra?.price ?? 0, locale));
  const [allowMultiple, setAllowMultiple] = useState(extra?.allowMultiple ?? false);
  const [isDefault, setIsDefault] = useState(extra?.isDefault ?? false);
  const [error, setError] = useState<string | null>(null);
  useFirstService(serviceId, setServiceId);
  const queues = services.data?.find((s) => s.id === serviceId)?.queues ?? [];
  const priceValue = moneyValue(price);
  const save = useMutation(
    trpc.referenceAdmin.saveExtra.mutationOptions({
      meta: { inlineError: true },
      onSuccess: () => {
        toast.success(extra ? t.refData.saved : t.refData.created);
        void queryClient.invalidateQueries({ queryKey: trpc.referenceAdmin.extras.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.reference.lookups.queryKey() });
        onClose();
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  const submit = () => {
    setError(null);
    if (serviceId === "") return;
    if (priceValue === null) return setError(t.refData.rates.moneyInvalid(t.refData.extras.price));
    save.mutate({ id: extra?.id, serviceId, queueId: queueId === "" ? null : queueId, code, name, nameEn, shortName, price: priceValue, allowMultiple, isDefault });
  };
  return (
    <FormModal title={extra ? t.refData.extras.editTitle(extra.name) : t.refData.extras.create} onClose={onClose} width={600} onSubmit={submit} pending={save.isPending}>
      <div className="grid-2">
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
      <div className="grid-3">
        <label className="field">
          <span>{t.refData.extras.code}</span>
          <input name="code" required value={code} pattern="[A-Za-z0-9_]+" onChange={(e) => setCode(e.target.value.toUpperCase())} />
          <span className="hint">{t.refData.extras.codeHint}</span>
        </label>
        <label className="field">
          <span>{t.refData.extras.shortName}</span>
          <input name="shortName" maxLength={10} value={shortName} onChange={(e) => setShortName(e.target.value)} />
        </label>
        <MoneyField label={t.refData.extras.price} name="price" value={price} invalid={priceValue === null} onChange={setPrice} />
      </div>
      <div className="grid-2">
        <label className="field">
          <span>{t.refData.name}</span>
          <input name="name" required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          <span>{t.refData.nameEn}</span>
          <input name="nameEn" required value={nameEn} onChange={(e) => setNameEn(e.target.value)} />
        </label>
      </div>
      <div className="chips">
        <Check name="allowMultiple" label={t.refData.extras.allowMultiple} checked={allowMultiple} onChange={setAllowMultiple} />
        <Check name="isDefault" label={t.refData.extras.isDefault} checked={isDefault} onChange={setIsDefault} />
      </div>
      <FormError error={error} />
      <button type="submit" hidden />
    </FormModal>
  );
}

export function ExtrasAdmin() {
  const { t, fmt, locale } = useI18n();
  const trpc = useTRPC();
  const [serviceId, setServiceId] = useState<number | "">("");
  const extras = useQuery(trpc.referenceAdmin.extras.queryOptions({ serviceId: serviceId || undefined }, { placeholderData: keepPreviousData }));
  const [editing, setEditing] = useState<ExtraRow | "new" | null>(null);
  return (
    <>
      <PageHeader title={t.refData.tabs.extras}>
        <button type="button" className="btn btn-primary" onClick={() => setEditing("new")}>
          <Icon name="plus" size={16} />
          {t.refData.extras.create}
        </button>
      </PageHeader>
      <div className="ref-toolbar">
        <ServiceSelect value={serviceId} onChange={setServiceId} all={t.refData.anyService} />
      </div>
      {extras.error ? (
        <ErrorNotice error={extras.error} onRetry={() => extras.refetch()} />
      ) : null}
      <div className="table-wrap">
        <table className="table" data-testid="extras-table">
          <thead>
            <tr>
              <th>{t.refData.extras.columns.code}</th>
              <th>{t.refData.extras.columns.name}</th>
              <th>{t.refData.extras.columns.service}</th>
              <th>{t.refData.extras.columns.queue}</th>
              <th className="num">{t.refData.extras.columns.price}</th>
              <th>{t.refData.extras.columns.flags}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {extras.data?.map((x) => (
              <tr key={x.id} data-extra={x.code}>
                <td className="mono">{x.code}</td>
                <td className="strong">
                  {locale === "en" ? x.nameEn : x.name}
                  {x.shortName ? <span className="pill">{x.shortName}</span> : null}
                </td>
                <td>{locale === "en" ? x.service.nameEn : x.service.name}</td>
                <td className="muted">{x.queue?.name ?? t.refData.allQueues}</td>
                <td className="money-cell">{fmt.money(x.price)}</td>
                <td>
                  <div className="flags">
                    {x.allowMultiple ? <span className="badge badge-free">{t.refData.extras.multiple}</span> : null}
                    {x.isDefault ? <span className="badge badge-assigned">{t.refData.extras.byDefault}</span> : null}
                  </div>
                </td>
                <td className="actions">
                  <button type="button" className="btn btn-small" onClick={() => setEditing(x)}>
                    {t.refData.edit}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {extras.data?.length === 0 ? <EmptyState title={t.common.nothing} /> : null}
      </div>
      {editing ? <ExtraDialog extra={editing === "new" ? null : editing} serviceId={serviceId} onClose={() => setEditing(null)} /> : null}
    </>
  );
}
