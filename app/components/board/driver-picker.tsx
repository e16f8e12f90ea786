"use client";
// Choosing a driver for an order: a search box over the active drivers,
// free ones first; arrow keys and Enter work in the list. A single match (or
// an exact call sign) is the choice without a click: a controlled <select
// size> shows an option as selected but fires no change event for it.
import { useEffect, useState } from "react";
import { useQuery, keepPreviousData } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { useDebounced } from "../use-debounced";

export interface PickedDriver {
  id: number;
  callSign: string;
}

export function DriverSelect({
  serviceId,
  value,
  onChange,
  label,
  autoFocus,
}: {
  serviceId?: number;
  value: PickedDriver | null;
  onChange: (driver: PickedDriver | null) => void;
  label: string;
  autoFocus?: boolean;
}) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const [q, setQ] = useState("");
  const debounced = useDebounced(q.trim(), 200);
  const drivers = useQuery(
    trpc.reference.assignableDrivers.queryOptions({ serviceId, q: debounced || undefined }, { placeholderData: keepPreviousData }),
  );
  const list = drivers.data ?? [];
  const typed = debounced.toLowerCase();
  const sole = (typed ? list.find((d) => d.callSign.toLowerCase() === typed) : undefined) ?? (list.length === 1 ? list[0] : undefined);
  const soleId = sole?.id;
  const soleCallSign = sole?.callSign;
  useEffect(() => {
    if (soleId !== undefined && soleCallSign !== undefined && value?.id !== soleId) onChange({ id: soleId, callSign: soleCallSign });
    // Only a new sole match chooses; a click on another option afterwards stays.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [soleId, soleCallSign]);
  return (
    <div className="driver-select">
      <label className="field">
        <span>{label}</span>
        <input
          type="search"
          value={q}
          autoFocus={autoFocus}
          placeholder={t.drivers.search}
          onChange={(e) => setQ(e.target.value)}
          aria-label={`${label}: ${t.drivers.search}`}
        />
      </label>
      <select
        className="driver-list"
        size={Math.min(6, Math.max(2, list.length))}
        value={value ? String(value.id) : ""}
        aria-label={label}
        onChange={(e) => {
          const d = list.find((x) => String(x.id) === e.target.value);
          onChange(d ? { id: d.id, callSign: d.callSign } : null);
        }}
      >
        {list.map((d) => (
          <option key={d.id} value={d.id}>
            {d.callSign} · {d.lastName} {d.firstName}
            {d.car ? ` · ${d.car.brand} ${d.car.model} ${d.car.regNumber}` : ""} · {t.drivers.states[d.state]}
          </option>
        ))}
      </select>
      {!drivers.isLoading && list.length === 0 ? <div className="muted small">{t.common.nothing}</div> : null}
    </div>
  );
}
