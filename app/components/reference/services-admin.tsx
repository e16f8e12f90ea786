"use client";
// Services: the city's kinds of rides (economy, comfort…), their order, the
// exchange car class they trade as, on or off. Audited; the reference cache
// is forgotten on every change.
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { Icon } from "../icons";
import { EmptyState, ErrorNotice, FormModal, PageHeader } from "../ui";
import { toast } from "../toast";
import { errorInfo } from "../errors";
import { Check, CitySelect, FormError, useAdminServices, useCities, useFirstCity } from "./common";

type ServiceRow = inferRouterOutputs<AppRouter>["referenceAdmin"]["services"][number];

function ServiceDialog({ service, onClose }: { service: ServiceRow | null; onClose: () => void }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cities = useCities();
  const [cityId, setCityId] = useState<number | "">(service?.cityId ?? cities.data?.[0]?.id ?? "");
  const [name, setName] = useState(service?.name ?? "");
  const [nameEn, setNameEn] = useState(service?.nameEn ?? "");
  const [description, setDescription] = useState(service?.description ?? "");
  const [sortOrder, setSortOrder] = useState(String(service?.sortOrder ?? 0));
  const [carClass, setCarClass] = useState(String(service?.carClass ?? 1));
  const [active, setActive] = useState(service?.active ?? true);
  useFirstCity(cityId, setCityId);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation(
    trpc.referenceAdmin.saveService.mutationOptions({
      meta: { inlineError: true },
      onSuccess: () => {
        toast.success(service ? t.refData.saved : t.refData.created);
        void queryClient.invalidateQueries({ queryKey: trpc.referenceAdmin.services.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.reference.lookups.queryKey() });
        onClose();
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  const submit = () => {
    setError(null);
    if (cityId === "") return;
    save.mutate({ id: service?.id, cityId, name, nameEn, description, sortOrder: Number(sortOrder) || 0, carClass: Number(carClass) || 1, active });
  };
  return (
    <FormModal title={service ? t.refData.services.editTitle(service.name) : t.refData.services.create} onClose={onClose} width={560} onSubmit={submit} pending={save.isPending}>
      <label className="field">
        <span>{t.refData.city}</span>
        {service ? <input value={cities.data?.find((c) => c.id === service.cityId)?.name ?? ""} disabled /> : <CitySelect value={cityId} onChange={setCityId} />}
      </label>
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
      <label className="field">
        <span>{t.refData.services.description}</span>
        <input name="description" value={description} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <div className="grid-2">
        <label className="field">
          <span>{t.refData.services.sortOrder}</span>
          <input name="sortOrder" type="number" value={sortOrder} onChange={(e) => setSortOrder(e.target.value)} />
        </label>
        <label className="field">
          <span>{t.refData.services.carClass}</span>
          <select name="carClass" value={carClass} onChange={(e) => setCarClass(e.target.value)}>
            {[1, 2, 3, 4, 5].map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Check name="active" label={t.refData.services.activeLabel} checked={active} onChange={setActive} />
      <FormError error={error} />
      <button type="submit" hidden />
    </FormModal>
  );
}

export function ServicesAdmin() {
  const { t, locale } = useI18n();
  const services = useAdminServices();
  const [editing, setEditing] = useState<ServiceRow | "new" | null>(null);
  return (
    <>
      <PageHeader title={t.refData.tabs.services}>
        <button type="button" className="btn btn-primary" onClick={() => setEditing("new")}>
          <Icon name="plus" size={16} />
          {t.refData.services.create}
        </button>
      </PageHeader>
      {services.error ? (
        <ErrorNotice error={services.error} onRetry={() => services.refetch()} />
      ) : null}
      <div className="table-wrap">
        <table className="table" data-testid="services-table">
          <thead>
            <tr>
              <th>{t.refData.services.columns.city}</th>
              <th>{t.refData.services.columns.name}</th>
              <th>{t.refData.services.columns.nameEn}</th>
              <th className="num">{t.refData.services.columns.carClass}</th>
              <th className="num">{t.refData.services.columns.sortOrder}</th>
              <th className="num">{t.refData.services.columns.rates}</th>
              <th className="num">{t.refData.services.columns.extras}</th>
              <th className="num">{t.refData.services.columns.drivers}</th>
              <th>{t.refData.services.columns.status}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {services.data?.map((s) => (
              <tr key={s.id} data-service={s.name} className={s.active ? "" : "row-disabled"}>
                <td className="muted">{locale === "en" ? s.city.nameEn : s.city.name}</td>
                <td className="strong">
                  {s.name}
                  {s.description ? <div className="cell-sub">{s.description}</div> : null}
                </td>
                <td>{s.nameEn}</td>
                <td className="num">{s.carClass}</td>
                <td className="num">{s.sortOrder}</td>
                <td className="num">{s._count.rates}</td>
                <td className="num">{s._count.extras}</td>
                <td className="num">{s._count.drivers}</td>
                <td>
                  <span className={`badge ${s.active ? "badge-success" : "badge-muted"}`}>{s.active ? t.refData.active : t.refData.inactive}</span>
                </td>
                <td className="actions">
                  <button type="button" className="btn btn-small" onClick={() => setEditing(s)}>
                    {t.refData.edit}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {services.data?.length === 0 ? <EmptyState title={t.common.nothing} /> : null}
      </div>
      {editing ? <ServiceDialog service={editing === "new" ? null : editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}
