"use client";
// The region hint (GET /hint, issue 30): while free, a card "Better to wait
// for orders in X — N min", what the rule measured (the city's recent
// orders, the seconds waiting there saves them), the route on the map and a
// dismiss. A hint, never an order: it sits among the shift's cards and never
// covers an offer.
import dynamic from "next/dynamic";
import { useEffect, useState } from "react";
import type { RegionHint } from "./api";
import { useDriverI18n } from "./i18n";
import { Card } from "./parts";

type Call = <T>(method: "GET" | "POST", path: string, input?: Record<string, unknown>) => Promise<T>;

const HintMap = dynamic(() => import("./hint-map").then((m) => m.HintMap), { ssr: false });

/** How often a free driver's app asks (the server keeps a hint 30 s; demand moves over minutes). */
const POLL_MS = 60_000;

export function HintCard({ free, call, position, tileUrl }: { free: boolean; call: Call; position: { lat: number; lon: number } | null; tileUrl: string }) {
  const { t, locale } = useDriverI18n();
  const [hint, setHint] = useState<RegionHint | null>(null);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [showRoute, setShowRoute] = useState(false);

  useEffect(() => {
    if (!free) return;
    let stopped = false;
    const ask = () =>
      call<{ hint: RegionHint | null }>("GET", "hint").then(
        (r) => {
          if (!stopped) setHint(r.hint);
        },
        () => undefined,
      );
    void ask();
    const timer = setInterval(() => void ask(), POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [free, call]);

  // Dismissed: hidden until a hint to another region comes.
  if (!free || !hint || dismissed === hint.region_id) return null;
  const name = locale === "en" ? hint.region_name_en : hint.region_name;
  const r = hint.reason;
  return (
    <Card testId="hint-card">
      <div className="drv-hint" role="status">
        <p className="drv-big">{t.hintTitle(name, hint.drive_minutes)}</p>
        <p className="drv-muted">
          {t.hintText({ pickups: r.pickups, windowMinutes: r.window_minutes, regionOrders: r.recent_orders, freeCars: r.free_drivers, savesSeconds: r.saves_seconds })}
        </p>
        {showRoute ? <HintMap hint={hint} position={position} call={call} tileUrl={tileUrl} /> : null}
        <div className="drv-hint-actions">
          <button type="button" className="drv-btn drv-btn-primary" aria-expanded={showRoute} onClick={() => setShowRoute((v) => !v)} data-testid="hint-route">
            {showRoute ? t.hintHideRoute : t.hintRoute}
          </button>
          <button
            type="button"
            className="drv-btn"
            onClick={() => {
              setDismissed(hint.region_id);
              setShowRoute(false);
            }}
            data-testid="hint-dismiss"
          >
            {t.hintDismiss}
          </button>
        </div>
      </div>
    </Card>
  );
}
