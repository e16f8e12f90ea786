"use client";
// Choosing a driver for an order: a search box over the active drivers,
// free ones first; arrow keys and Enter work in the list.
import { useState } from "react";
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
