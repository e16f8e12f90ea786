"use client";
// Small shared parts of the reference data pages: the cities and services
// for selects, money fields in roubles (stored in kopecks), a dialog's
// error line and checkbox fields.
import { useEffect, type ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { kopecksToInput, parseRoubles } from "@/shared/money";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";

export function useCities() {
  const trpc = useTRPC();
  return useQuery(trpc.referenceAdmin.cities.queryOptions(undefined, { staleTime: 5 * 60_000 }));
}

export function useAdminServices() {
  const trpc = useTRPC();
  return useQuery(trpc.referenceAdmin.services.queryOptions(undefined, { staleTime: 30_000 }));
}

/** Fills an empty city choice with the first city once the cities are loaded. */
export function useFirstCity(cityId: number | "", setCityId: (id: number) => void, onSet?: (city: { id: number; lat: number; lon: number }) => void) {
  const cities = useCities();
  const first = cities.data?.[0];
  useEffect(() => {
    if (cityId === "" && first) {
      setCityId(first.id);
      onSet?.(first);
    }
  }, [cityId, first]);
}

/** Fills an empty service choice with the first service once the services are loaded. */
export function useFirstService(serviceId: number | "", setServiceId: (id: number) => void) {
  const services = useAdminServices();
  const first = services.data?.[0];
  useEffect(() => {
    if (serviceId === "" && first) setServiceId(first.id);
  }, [serviceId, first]);
}

export function CitySelect({ value, onChange, name = "cityId", all }: { value: number | ""; onChange: (id: number | "") => void; name?: string; all?: string }) {
  const { t, locale } = useI18n();
  const cities = useCities();
  return (
    <select name={name} aria-label={t.refData.city} value={value} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : "")}>
      {all !== undefined ? <option value="">{all}</option> : value === "" ? <option value="" disabled>{t.common.none}</option> : null}
      {cities.data?.map((c) => (
        <option key={c.id} value={c.id}>
          {locale === "en" ? c.nameEn : c.name}
        </option>
      ))}
    </select>
  );
}

export function ServiceSelect({ value, onChange, name = "serviceId", all }: { value: number | ""; onChange: (id: number | "") => void; name?: string; all?: string }) {
  const { t, locale } = useI18n();
  const services = useAdminServices();
  const cities = useCities();
  const multiCity = (cities.data?.length ?? 0) > 1;
  return (
    <select name={name} aria-label={t.refData.service} value={value} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : "")}>
      {all !== undefined ? <option value="">{all}</option> : value === "" ? <option value="" disabled>{t.common.none}</option> : null}
      {services.data?.map((s) => (
        <option key={s.id} value={s.id}>
          {locale === "en" ? s.nameEn : s.name}
          {multiCity ? ` — ${locale === "en" ? s.city.nameEn : s.city.name}` : ""}
        </option>
      ))}
    </select>
  );
}

/** A text input holding roubles for a kopeck value. */
export function MoneyField({ label, name, value, onChange, invalid }: { label: string; name: string; value: string; onChange: (v: string) => void; invalid?: boolean }) {
  return (
    <label className="field">
      <span>{label}</span>
      <input name={name} inputMode="decimal" autoComplete="off" value={value} aria-invalid={invalid || undefined} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}

export function moneyText(kopecks: number | null | undefined, locale: "ru" | "en"): string {
  return kopecksToInput(kopecks ?? 0, locale);
}

/** Kopecks of a roubles field, or null when it is not an amount. */
export function moneyValue(text: string): number | null {
  const v = parseRoubles(text.trim() === "" ? "0" : text);
  return v === null || v < 0 ? null : v;
}

export function Check({ label, checked, onChange, name }: { label: ReactNode; checked: boolean; onChange: (v: boolean) => void; name?: string }) {
  return (
    <label className="check">
      <input type="checkbox" name={name} checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

export function FormError({ error }: { error: string | null }) {
  return error ? (
    <div className="notice notice-error" role="alert">
      {error}
    </div>
  ) : null;
}
