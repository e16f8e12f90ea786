"use client";
// Drivers automatic dispatch passes over (away after offers let time out, a
// stale position, a silent app; docs/dispatch.md): a badge in the drivers
// list and the tab that lists only them.
import { useI18n } from "../i18n";

export interface DispatchLiveness {
  away: boolean;
  /** On shift, offered nothing on the driver's own wish (issue 34). */
  onBreak?: boolean;
  stalePosition: boolean;
  silentApp: boolean;
}

export function DispatchLivenessBadge({ dispatch }: { dispatch: DispatchLiveness | null }) {
  const { t } = useI18n();
  if (!dispatch) return null;
  const reasons = [dispatch.onBreak && t.driverLiveness.onBreak, dispatch.away && t.driverLiveness.away, dispatch.stalePosition && t.driverLiveness.stalePosition, dispatch.silentApp && t.driverLiveness.silentApp].filter(
    (r): r is string => typeof r === "string",
  );
  if (reasons.length === 0) return null;
  return (
    <span className="badge badge-moderation" title={t.driverLiveness.hint} style={{ marginLeft: 6 }}>
      {reasons.join(", ")}
    </span>
  );
}

export function NotOfferedTab({ selected, count, onSelect }: { selected: boolean; count: number | undefined; onSelect: () => void }) {
  const { t } = useI18n();
  return (
    <button type="button" role="tab" aria-selected={selected} className={`tab${selected ? " active" : ""}`} onClick={onSelect} title={t.driverLiveness.hint}>
      {t.driverLiveness.tab}
      {count !== undefined ? <span className="tab-count">{count}</span> : null}
    </button>
  );
}
