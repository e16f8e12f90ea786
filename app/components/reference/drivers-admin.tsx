"use client";
// Drivers as the fleet's office keeps them: names, phone, permit, services,
// the car; enable or disable (off the line at once, the app refused); a new
// app key for the driver's phone (shown once). Audited.
import { useMemo, useState } from "react";
import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { Icon } from "../icons";
import { EmptyState, ErrorNotice, FormModal, Modal, PageHeader } from "../ui";
import { toast } from "../toast";
import { errorInfo } from "../errors";
import { useDebounced } from "../use-debounced";
import { Check, CitySelect, FormError, useAdminServices, useCities, useFirstCity } from "./common";
import { DriverAppLink } from "./driver-app-link";

type DriverRow = inferRouterOutputs<AppRouter>["referenceAdmin"]["drivers"]["items"][number];

function DriverDialog({ driver, onClose }: { driver: DriverRow | null; onClose: () => void }) {
  const { t, locale } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cities = useCities();
  const services = useAdminServices();
  const [cityId, setCityId] = useState<number | "">(driver?.cityId ?? cities.data?.[0]?.id ?? "");
  const [callSign, setCallSign] = useState(driver?.callSign ?? "");
  const [firstName, setFirstName] = useState(driver?.firstName ?? "");
  const [lastName, setLastName] = useState(driver?.lastName ?? "");
  const [middleName, setMiddleName] = useState(driver?.middleName ?? "");
  const [phone, setPhone] = useState(driver?.phone ?? "");
  const [permit, setPermit] = useState(driver?.permitNumber ?? "");
  const [serviceIds, setServiceIds] = useState<number[]>(driver?.services.map((s) => s.serviceId) ?? []);
  const [hasCar, setHasCar] = useState(driver ? driver.car !== null : true);
  const [brand, setBrand] = useState(driver?.car?.brand ?? "");
  const [model, setModel] = useState(driver?.car?.model ?? "");
  const [color, setColor] = useState(driver?.car?.color ?? "");
  const [regNumber, setRegNumber] = useState(driver?.car?.regNumber ?? "");
  const [year, setYear] = useState(driver?.car?.year ? String(driver.car.year) : "");
  const [carClass, setCarClass] = useState(String(driver?.car?.carClass ?? 1));
  const [error, setError] = useState<string | null>(null);
  useFirstCity(cityId, setCityId);
  const cityServices = (services.data ?? []).filter((s) => s.cityId === cityId);
  const save = useMutation(
    trpc.referenceAdmin.saveDriver.mutationOptions({
      meta: { inlineError: true },
      onSuccess: () => {
        toast.success(driver ? t.refData.saved : t.refData.created);
        void queryClient.invalidateQueries({ queryKey: trpc.referenceAdmin.drivers.pathKey() });
        onClose();
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  const submit = () => {
    setError(null);
    if (cityId === "") return;
    save.mutate({
      id: driver?.id,
      cityId,
      callSign,
      firstName,
      lastName,
      middleName,
      phone,
      permitNumber: permit,
      serviceIds: serviceIds.filter((id) => cityServices.some((s) => s.id === id)),
      car: hasCar ? { brand, model, color, regNumber, year: year ? Number(year) : null, carClass: Number(carClass) || 1 } : null,
    });
  };
  return (
    <FormModal title={driver ? t.refData.drivers.editTitle(driver.callSign) : t.refData.drivers.create} onClose={onClose} width={680} onSubmit={submit} pending={save.isPending}>
      <div className="grid-3">
        <label className="field">
          <span>{t.refData.drivers.callSign}</span>
          <input name="callSign" required value={callSign} onChange={(e) => setCallSign(e.target.value)} />
        </label>
        <label className="field">
          <span>{t.refData.city}</span>
          <CitySelect value={cityId} onChange={setCityId} />
        </label>
        <label className="field">
          <span>{t.refData.drivers.phone}</span>
          <input name="phone" required inputMode="tel" value={phone} placeholder="+7 900 000-00-00" onChange={(e) => setPhone(e.target.value)} />
        </label>
        <label className="field">
          <span>{t.refData.drivers.lastName}</span>
          <input name="lastName" value={lastName} onChange={(e) => setLastName(e.target.value)} />
        </label>
        <label className="field">
          <span>{t.refData.drivers.firstName}</span>
          <input name="firstName" required value={firstName} onChange={(e) => setFirstName(e.target.value)} />
        </label>
        <label className="field">
          <span>{t.refData.drivers.middleName}</span>
          <input name="middleName" value={middleName} onChange={(e) => setMiddleName(e.target.value)} />
        </label>
      </div>
      <label className="field">
        <span>{t.refData.drivers.permit}</span>
        <input name="permitNumber" value={permit} onChange={(e) => setPermit(e.target.value)} />
      </label>
      <div className="field">
        <span>{t.refData.drivers.services}</span>
        <div className="chips" role="group" aria-label={t.refData.drivers.services}>
          {cityServices.map((s) => {
            const on = serviceIds.includes(s.id);
            return (
              <label key={s.id} className={`chip${on ? " on" : ""}`}>
                <input type="checkbox" checked={on} onChange={(e) => setServiceIds((ids) => (e.target.checked ? [...ids, s.id] : ids.filter((x) => x !== s.id)))} />
                {locale === "en" ? s.nameEn : s.name}
              </label>
            );
          })}
        </div>
      </div>
      <div className="form-section">{t.refData.drivers.car}</div>
      <Check name="hasCar" label={t.refData.drivers.car} checked={hasCar} onChange={setHasCar} />
      {hasCar ? (
        <div className="grid-3">
          <label className="field">
            <span>{t.refData.drivers.brand}</span>
            <input name="brand" required value={brand} onChange={(e) => setBrand(e.target.value)} />
          </label>
          <label className="field">
            <span>{t.refData.drivers.model}</span>
            <input name="model" required value={model} onChange={(e) => setModel(e.target.value)} />
          </label>
          <label className="field">
            <span>{t.refData.drivers.color}</span>
            <input name="color" required value={color} onChange={(e) => setColor(e.target.value)} />
          </label>
          <label className="field">
            <span>{t.refData.drivers.regNumber}</span>
            <input name="regNumber" required value={regNumber} onChange={(e) => setRegNumber(e.target.value.toUpperCase())} />
          </label>
          <label className="field">
            <span>{t.refData.drivers.year}</span>
            <input name="year" inputMode="numeric" value={year} onChange={(e) => setYear(e.target.value)} />
          </label>
          <label className="field">
            <span>{t.refData.drivers.carClass}</span>
            <select name="carClass" value={carClass} onChange={(e) => setCarClass(e.target.value)}>
              {[1, 2, 3, 4, 5].map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
        </div>
      ) : null}
      <FormError error={error} />
      <button type="submit" hidden />
    </FormModal>
  );
}

function KeyDialog({ callSign, appKey, onClose }: { callSign: string; appKey: string; onClose: () => void }) {
  const { t } = useI18n();
  return (
    <Modal
      title={`${t.refData.drivers.editTitle(callSign)} · ${t.apiKeys.issuedTitle}`}
      onClose={onClose}
      width={560}
      footer={
        <button type="button" className="btn btn-primary" onClick={onClose}>
          {t.common.done}
        </button>
      }
    >
      <div className="notice notice-warn">{t.apiKeys.issuedWarning}</div>
      <div className="secret" data-testid="driver-app-key">
        <code>{appKey}</code>
        <button type="button" className="btn btn-small" onClick={() => void navigator.clipboard?.writeText(appKey).then(() => toast.success(t.common.copied))}>
          {t.common.copy}
        </button>
      </div>
      <DriverAppLink callSign={callSign} appKey={appKey} />
    </Modal>
  );
}

export function DriversAdmin() {
  const { t, fmt, locale } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const services = useAdminServices();
  const [search, setSearch] = useState("");
  const [activeOnly, setActiveOnly] = useState(false);
  const q = useDebounced(search.trim(), 250);
  const drivers = useInfiniteQuery(
    trpc.referenceAdmin.drivers.infiniteQueryOptions(
      { q: q || undefined, active: activeOnly ? true : undefined, limit: 100 },
      { getNextPageParam: (p) => p.nextCursor ?? undefined, placeholderData: keepPreviousData },
    ),
  );
  const rows = useMemo(() => drivers.data?.pages.flatMap((p) => p.items) ?? [], [drivers.data]);
  const [editing, setEditing] = useState<DriverRow | "new" | null>(null);
  const [issued, setIssued] = useState<{ callSign: string; key: string } | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.referenceAdmin.drivers.pathKey() });
  const setActive = useMutation(
    trpc.referenceAdmin.setDriverActive.mutationOptions({
      onSuccess: (r, vars) => {
        const callSign = rows.find((d) => d.id === vars.driverId)?.callSign ?? String(vars.driverId);
        toast.success(r.active ? t.refData.drivers.activated(callSign) : t.refData.drivers.deactivated(callSign));
        refresh();
      },
    }),
  );
  const issueKey = useMutation(trpc.referenceAdmin.issueDriverKey.mutationOptions({ onSuccess: (r) => setIssued({ callSign: r.callSign, key: r.key }) }));
  const serviceName = (id: number) => {
    const s = services.data?.find((x) => x.id === id);
    return s ? (locale === "en" ? s.nameEn : s.name) : String(id);
  };
  return (
    <>
      <PageHeader title={t.refData.tabs.drivers}>
        <button type="button" className="btn btn-primary" onClick={() => setEditing("new")}>
          <Icon name="plus" size={16} />
          {t.refData.drivers.create}
        </button>
      </PageHeader>
      <div className="ref-toolbar">
        <label className="search">
          <Icon name="search" size={16} />
          <input type="search" value={search} placeholder={t.drivers.search} aria-label={t.drivers.search} onChange={(e) => setSearch(e.target.value)} />
        </label>
        <Check label={t.refData.drivers.activeOnly} checked={activeOnly} onChange={setActiveOnly} />
      </div>
      {drivers.error ? (
        <ErrorNotice error={drivers.error} onRetry={() => drivers.refetch()} />
      ) : null}
      <div className="table-wrap">
        <table className="table" data-testid="ref-drivers-table">
          <thead>
            <tr>
              <th>{t.refData.drivers.columns.callSign}</th>
              <th>{t.refData.drivers.columns.name}</th>
              <th>{t.refData.drivers.columns.city}</th>
              <th>{t.refData.drivers.columns.phone}</th>
              <th>{t.refData.drivers.columns.car}</th>
              <th>{t.refData.drivers.columns.services}</th>
              <th>{t.refData.drivers.columns.status}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.id} data-driver={d.callSign} className={d.active ? "" : "row-disabled"}>
                <td className="mono strong">{d.callSign}</td>
                <td>{[d.lastName, d.firstName, d.middleName].filter(Boolean).join(" ")}</td>
                <td className="muted">{locale === "en" ? d.city.nameEn : d.city.name}</td>
                <td className="mono">{fmt.phone(d.phone)}</td>
                <td>
                  {d.car ? (
                    <>
                      {d.car.brand} {d.car.model}, {d.car.color} <span className="plate">{d.car.regNumber}</span>
                    </>
                  ) : (
                    <span className="muted">{t.refData.drivers.noCar}</span>
                  )}
                </td>
                <td className="small">{d.services.map((s) => serviceName(s.serviceId)).join(", ") || t.common.none}</td>
                <td>
                  <span className={`badge ${d.active ? "badge-success" : "badge-muted"}`}>{d.active ? t.refData.drivers.active : t.refData.drivers.inactive}</span>
                </td>
                <td className="actions">
                  <button type="button" className="btn btn-small" onClick={() => setEditing(d)}>
                    {t.refData.edit}
                  </button>
                  <button type="button" className="btn btn-small" title={t.refData.drivers.appKeyHint} onClick={() => issueKey.mutate({ driverId: d.id })} disabled={!d.active}>
                    <Icon name="key" size={14} />
                    {t.refData.drivers.appKey}
                  </button>
                  <button
                    type="button"
                    className={`btn btn-small${d.active ? " btn-ghost-danger" : ""}`}
                    onClick={() => {
                      if (d.active && !window.confirm(t.refData.drivers.confirmDeactivate(d.callSign))) return;
                      setActive.mutate({ driverId: d.id, active: !d.active });
                    }}
                  >
                    {d.active ? t.refData.drivers.deactivate : t.refData.drivers.activate}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {!drivers.isLoading && rows.length === 0 ? <EmptyState title={t.common.nothing} icon="drivers" /> : null}
        {drivers.hasNextPage ? (
          <div className="pad">
            <button type="button" className="btn" onClick={() => void drivers.fetchNextPage()} disabled={drivers.isFetchingNextPage}>
              {t.common.loadMore}
            </button>
          </div>
        ) : null}
      </div>
      {editing ? <DriverDialog driver={editing === "new" ? null : editing} onClose={() => setEditing(null)} /> : null}
      {issued ? <KeyDialog callSign={issued.callSign} appKey={issued.key} onClose={() => setIssued(null)} /> : null}
    </>
  );
}
