"use client";
// The shift: start and end, the driver's state, the GPS, the parking queue,
// the balance and the car.
import { useState } from "react";
import { DriverApiError, type DriverProfile, type QueuePlace } from "./api";
import type { Notice } from "./driver-app";
import { useDriverI18n } from "./i18n";
import { Card, Field } from "./parts";
import type { GpsStatus } from "./use-positions";

type Call = <T>(method: "GET" | "POST", path: string, input?: Record<string, unknown>) => Promise<T>;

export function ShiftScreen({ me, gps, queue, call, onChanged, onNotice, hasOrder }: { me: DriverProfile; gps: { status: GpsStatus; accuracy: number; last: { lat: number; lon: number } | null }; queue: QueuePlace | null; call: Call; onChanged: () => Promise<void>; onNotice: (n: Notice) => void; hasOrder: boolean }) {
  const { t, money, time, locale } = useDriverI18n();
  const [busy, setBusy] = useState(false);

  const act = async (path: string, input?: Record<string, unknown>, refused?: string) => {
    setBusy(true);
    try {
      await call("POST", path, input);
    } catch (e) {
      if (e instanceof DriverApiError && !e.unauthorized) onNotice({ kind: "error", text: refused && e.status === 409 ? refused : e.message });
    } finally {
      setBusy(false);
      await onChanged();
    }
  };
  const startShift = () => act("shift/start", gps.last ? { lat: gps.last.lat, lon: gps.last.lon } : {});

  return (
    <>
      <Card testId="shift-card">
        <div className="drv-shift">
          <div>
            <div className="drv-big">{me.on_shift ? t.state[me.state] : t.state.OFFLINE}</div>
            {me.on_shift && me.shift_started_at ? <div className="drv-muted">{t.shiftSince(time(me.shift_started_at))}</div> : null}
            {me.on_shift && me.on_break ? <div className="drv-muted" data-testid="break-state">{t.onBreak}</div> : null}
          </div>
        </div>
        {me.on_shift ? (
          // A toggle (aria-pressed): on a break the driver stays on shift and is offered nothing.
          <button
            type="button"
            className={`drv-btn drv-btn-block${me.on_break ? " drv-btn-primary" : ""}`}
            aria-pressed={me.on_break === true}
            disabled={busy || (!me.on_break && (hasOrder || me.state !== "FREE"))}
            onClick={() => void act(me.on_break ? "break/end" : "break/start", undefined, t.breakNeedsFree)}
            data-testid="break-toggle"
          >
            {t.breakToggle}
          </button>
        ) : null}
        {me.on_shift ? (
          <button type="button" className="drv-btn drv-btn-block drv-btn-danger" disabled={busy || hasOrder} onClick={() => void act("shift/end", undefined, t.shiftEndRefused)} data-testid="shift-end">
            {t.endShift}
          </button>
        ) : (
          <button type="button" className="drv-btn drv-btn-block drv-btn-primary" disabled={busy} onClick={() => void startShift()} data-testid="shift-start">
            {t.startShift}
          </button>
        )}
        <p className={`drv-gps drv-gps-${gps.status}`} data-testid="shift-gps">
          <strong>{t.gps}:</strong> {gps.status === "on" ? t.gpsOn(gps.accuracy) : gps.status === "denied" ? t.gpsDenied : gps.status === "waiting" ? t.gpsWaiting : t.gpsOff}
        </p>
      </Card>
      <Card title={t.balance} testId="shift-balance">
        <div className={`drv-balance${me.balance < 0 ? " drv-negative" : ""}`}>{money(me.balance)}</div>
      </Card>
      {me.on_shift ? (
        <Card title={t.queue} testId="shift-queue">
          <p className="drv-big" data-testid="queue-place">
            {queue ? t.queuePlace(queue.position, queue.length) : t.queueNone}
          </p>
          {queue ? (
            <button type="button" className="drv-btn drv-btn-block" disabled={busy} onClick={() => void act("queue/leave")} data-testid="queue-leave">
              {t.queueLeave}
            </button>
          ) : (
            <button type="button" className="drv-btn drv-btn-block" disabled={busy || me.state !== "FREE"} onClick={() => void act("queue/join", undefined, t.queueNeedsFree)} data-testid="queue-join">
              {t.queueJoin}
            </button>
          )}
        </Card>
      ) : null}
      <Card title={t.car} testId="shift-car">
        {me.car ? (
          <>
            <p className="drv-big">
              {me.car.brand} {me.car.model}, {me.car.color}
            </p>
            <p>
              <span className="drv-plate">{me.car.reg_number}</span>
            </p>
          </>
        ) : (
          <p>{t.noCar}</p>
        )}
        <Field label={t.services}>
          <span data-testid="shift-services">{(me.services ? me.services.map((s) => (locale === "en" && s.name_en ? s.name_en : s.name)) : me.service_ids.map(String)).join(", ") || "—"}</span>
        </Field>
      </Card>
    </>
  );
}
