"use client";
// Choosing a driver for an order: a search box over the active drivers,
// free ones first; arrow keys and Enter work in the list. A single match (or
// an exact call sign) is the choice without a click: a controlled <select
// size> shows an option as selected but fires no change event for it.
// A driver automatic dispatch passes over (away, a stale position, a silent
// app: server/dispatch/liveness.ts) is marked in the list and, once chosen,
// warned about; the dialogs ask once more before giving such a driver the
// order (useLivenessGate).
import { useEffect, useState } from "react";
import { useQuery, keepPreviousData } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { useDebounced } from "../use-debounced";
import { gateStep, isRisky, livenessReasons, type DriverLivenessFlags } from "./liveness-gate";

export interface PickedDriver {
  id: number;
  callSign: string;
  /** Why automatic dispatch passes the driver over (all false: it does not); absent: not known. */
  dispatch?: DriverLivenessFlags;
}

/**
 * Asking before giving an order to a silent or away driver (gateStep): the
 * first submit with such a driver arms the question instead of giving; a
 * second one (Enter or the button again) gives.
 */
export function useLivenessGate(driver: PickedDriver | null): { pass: () => boolean; asking: boolean } {
  const [armed, setArmed] = useState<number | null>(null);
  return {
    pass: () => {
      const step = gateStep(armed, driver);
      setArmed(step.armed);
      return step.pass;
    },
    asking: driver !== null && isRisky(driver.dispatch) && armed === driver.id,
  };
}

export function DriverSelect({
  serviceId,
  value,
  onChange,
  label,
  autoFocus,
  asking = false,
}: {
  serviceId?: number;
  value: PickedDriver | null;
  onChange: (driver: PickedDriver | null) => void;
  label: string;
  autoFocus?: boolean;
  /** The dialog asks whether to give the order to the chosen driver all the same (useLivenessGate). */
  asking?: boolean;
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
  // Only the list of what is typed now chooses by itself: the earlier text's list stays on screen while
  // the new one loads, and its sole driver is not the one a dispatcher typing "75" after "7" means.
  const fresh = debounced === q.trim() && !drivers.isPlaceholderData;
  const sole = fresh ? ((typed ? list.find((d) => d.callSign.toLowerCase() === typed) : undefined) ?? (list.length === 1 ? list[0] : undefined)) : undefined;
  const soleId = sole?.id;
  const soleCallSign = sole?.callSign;
  useEffect(() => {
    if (sole && value?.id !== soleId) onChange({ id: sole.id, callSign: sole.callSign, dispatch: sole.dispatch });
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
          onChange={(e) => {
            setQ(e.target.value);
            // A new search drops the choice the old one made: Enter before the new list comes gives to nobody.
            if (value && e.target.value.trim() !== q.trim()) onChange(null);
          }}
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
          onChange(d ? { id: d.id, callSign: d.callSign, dispatch: d.dispatch } : null);
        }}
      >
        {list.map((d) => (
          <option key={d.id} value={d.id}>
            {d.callSign} · {d.lastName} {d.firstName}
            {d.car ? ` · ${d.car.brand} ${d.car.model} ${d.car.regNumber}` : ""} · {t.drivers.states[d.state]}
            {livenessReasons(d.dispatch, t.driverLiveness).map((r) => ` · ⚠ ${r}`).join("")}
          </option>
        ))}
      </select>
      {value && livenessReasons(value.dispatch, t.driverLiveness).length > 0 ? (
        <div className="field-error driver-liveness-warning" role="alert" data-testid="driver-liveness-warning">
          {t.driverLiveness.pickerWarning(value.callSign, livenessReasons(value.dispatch, t.driverLiveness).join(", "))}
          {asking ? <strong> {t.driverLiveness.pickerAsk(value.callSign)}</strong> : null}
        </div>
      ) : null}
      {!drivers.isLoading && list.length === 0 ? <div className="muted small">{t.common.nothing}</div> : null}
    </div>
  );
}
