"use client";
// The tracking page in the browser: the view the server rendered, then the
// live one from /t/<token>/events (server-sent events; the browser's
// EventSource reconnects by itself), the call button (a link to
// /t/<token>/call, which answers a redirect to tel: only while a car is on
// the order: the driver's phone is never in this page), cancelling with a
// reason until the car arrives, the fare and the rating after the trip.
import dynamic from "next/dynamic";
import { useEffect, useState, type FormEvent } from "react";
import { trackingStrings, type TrackingStrings } from "@/shared/i18n/tracking";
import type { Locale } from "@/shared/locale";
import { RATING_COMMENT_MAX, RATING_STARS } from "@/shared/tracking/phase";
import { trackingViewSchema, type TrackingView } from "@/shared/tracking/view";
import "../tracking.css";

const TrackingMap = dynamic(() => import("./tracking-map"), { ssr: false, loading: () => <div className="trk-map" /> });

type Link = "live" | "offline";

async function post(token: string, path: string, body: unknown): Promise<{ ok: boolean; status: number; data: unknown }> {
  try {
    const r = await fetch(`/t/${encodeURIComponent(token)}/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return { ok: r.ok, status: r.status, data: await r.json().catch(() => null) };
  } catch {
    return { ok: false, status: 0, data: null };
  }
}

/** The order's view now (after a refusal that may mean the page's view is stale), or null. */
async function freshView(token: string): Promise<TrackingView | null> {
  try {
    const r = await fetch(`/t/${encodeURIComponent(token)}/state`, { cache: "no-store" });
    if (!r.ok) return null;
    const parsed = trackingViewSchema.safeParse(await r.json());
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function TrackingClient({ token, initial, locale }: { token: string; initial: TrackingView; locale: Locale }) {
  const t = trackingStrings[locale];
  const [view, setView] = useState(initial);
  const [link, setLink] = useState<Link>("live");

  useEffect(() => {
    const source = new EventSource(`/t/${encodeURIComponent(token)}/events`);
    source.addEventListener("state", (event) => {
      const parsed = trackingViewSchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
      if (parsed.success) setView(parsed.data);
      setLink("live");
    });
    // The link stopped working: the page itself now answers "not found".
    source.addEventListener("gone", () => {
      source.close();
      window.location.reload();
    });
    source.onerror = () => setLink("offline");
    source.onopen = () => setLink("live");
    return () => source.close();
  }, [token]);

  const minutes = view.arrival_seconds === null ? null : Math.max(1, Math.round(view.arrival_seconds / 60));
  const car = view.driver?.car;
  const pickup = view.pickup.lat !== null && view.pickup.lon !== null ? { lat: view.pickup.lat, lon: view.pickup.lon } : null;
  const destination = view.destination?.lat != null && view.destination.lon != null ? { lat: view.destination.lat, lon: view.destination.lon } : null;
  const showMap = view.phase === "coming" || view.phase === "arrived" || view.phase === "riding" || view.phase === "searching" || view.phase === "scheduled";

  return (
    <main className="trk" data-phase={view.phase}>
      <header className="trk-head">
        <div>
          <h1 data-testid="phase">{t.phase[view.phase]}</h1>
          {view.phase === "coming" ? (
            <p className="trk-eta" data-testid="arrival" data-seconds={view.arrival_seconds ?? ""}>
              {minutes === null ? t.arrivalUnknown : t.arrivesIn(minutes)}
            </p>
          ) : null}
          {view.phase === "scheduled" && view.pre_order_time ? (
            <p className="trk-eta">{t.scheduledFor(new Date(view.pre_order_time).toLocaleString(locale === "ru" ? "ru-RU" : "en-GB", { dateStyle: "short", timeStyle: "short" }))}</p>
          ) : null}
        </div>
        <nav className="trk-lang" aria-label={t.language}>
          {(["ru", "en"] as const).map((l) => (
            <a key={l} href={`?lang=${l}`} aria-current={l === locale ? "true" : undefined} lang={l}>
              {l.toUpperCase()}
            </a>
          ))}
        </nav>
      </header>

      {showMap ? (
        <TrackingMap
          token={token}
          pickup={pickup}
          destination={destination}
          car={view.driver?.position ? { lat: view.driver.position.lat, lon: view.driver.position.lon, bearing: view.driver.position.bearing } : null}
          label={t.mapLabel}
          carLabel={t.carMarker}
          pickupLabel={t.pickupMarker}
        />
      ) : null}
      {showMap ? (
        <p className={`trk-link trk-link-${link}`} role="status">
          {link === "live" ? t.live : t.offline}
        </p>
      ) : null}

      {view.driver ? (
        <section className="trk-card" aria-label={t.driver} data-testid="driver">
          <div className="trk-driver">
            <div>
              <div className="trk-muted">{t.driver}</div>
              <div className="trk-strong" data-testid="driver-name">{view.driver.first_name}</div>
            </div>
            {car ? (
              <div className="trk-car-facts">
                <div className="trk-muted">{t.car}</div>
                <div className="trk-strong">
                  {car.colour} {car.make} {car.model}
                </div>
                <div className="trk-plate" data-testid="plate">{car.plate}</div>
              </div>
            ) : null}
          </div>
          {view.can_call ? (
            <a className="trk-btn trk-btn-primary" href={`/t/${encodeURIComponent(token)}/call`} data-testid="call">
              {t.call}
            </a>
          ) : null}
        </section>
      ) : null}

      <section className="trk-card" aria-label={t.pickup}>
        <div className="trk-muted">{t.pickup}</div>
        <div className="trk-strong">{view.pickup.address}</div>
        {view.destination ? (
          <>
            <div className="trk-muted trk-gap">{t.destination}</div>
            <div className="trk-strong">{view.destination.address}</div>
          </>
        ) : null}
      </section>

      {view.fare ? <Fare t={t} fare={view.fare} /> : null}
      {view.phase === "done" ? (
        <Rating t={t} token={token} view={view} onRated={(stars, comment) => setView({ ...view, rating: { can_rate: false, stars, comment } })} onStale={setView} />
      ) : null}
      {view.can_cancel ? <Cancel t={t} token={token} onCancelled={(next) => next && setView(next)} /> : null}
    </main>
  );
}

function Fare({ t, fare }: { t: TrackingStrings; fare: NonNullable<TrackingView["fare"]> }) {
  const b = fare.breakdown;
  return (
    <section className="trk-card" aria-label={t.fare} data-testid="fare">
      <div className="trk-fare">
        <span>{t.fare}</span>
        <span className="trk-amount">{t.rub(fare.amount)}</span>
      </div>
      {b ? (
        <dl className="trk-breakdown">
          {(Object.keys(t.breakdown) as Array<keyof typeof b>)
            .filter((k) => b[k] !== "0.00")
            .map((k) => (
              <div key={k}>
                <dt>{t.breakdown[k]}</dt>
                <dd>{t.rub(b[k])}</dd>
              </div>
            ))}
        </dl>
      ) : null}
    </section>
  );
}

function Rating({
  t,
  token,
  view,
  onRated,
  onStale,
}: {
  t: TrackingStrings;
  token: string;
  view: TrackingView;
  onRated: (stars: number, comment: string) => void;
  onStale: (view: TrackingView) => void;
}) {
  const [stars, setStars] = useState<number | null>(null);
  const [comment, setComment] = useState("");
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  if (view.rating.stars !== null) {
    return (
      <section className="trk-card" data-testid="rating-done">
        <p className="trk-strong">{t.thanks}</p>
        <p className="trk-stars" aria-label={t.yourRating(view.rating.stars)}>
          <span aria-hidden="true">{"★".repeat(view.rating.stars)}{"☆".repeat(5 - view.rating.stars)}</span>
        </p>
      </section>
    );
  }
  if (!view.rating.can_rate) {
    // A done trip not rated that can no longer be: the rating window is over (RATING_WINDOW_HOURS).
    return (
      <section className="trk-card" data-testid="rating-closed">
        <p className="trk-muted">{t.ratingClosed}</p>
      </section>
    );
  }
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (stars === null) return;
    setBusy(true);
    const r = await post(token, "rating", { stars, comment });
    if (r.status === 409) {
      // Refused as no longer possible (the window closed while the page was open, or rated elsewhere): show why.
      const now = await freshView(token);
      setBusy(false);
      if (now && !now.rating.can_rate) return onStale(now);
    }
    setBusy(false);
    setFailed(!r.ok);
    if (r.ok) onRated(stars, comment.trim());
  };
  return (
    <form className="trk-card" onSubmit={(e) => void submit(e)} data-testid="rating">
      <fieldset className="trk-rate">
        <legend className="trk-strong">{t.rate}</legend>
        <div className="trk-star-row">
          {RATING_STARS.map((n) => (
            <label key={n} className={`trk-star${stars !== null && n <= stars ? " trk-star-on" : ""}`}>
              <input type="radio" name="stars" value={n} checked={stars === n} onChange={() => setStars(n)} aria-label={t.star(n)} />
              <span aria-hidden="true">★</span>
            </label>
          ))}
        </div>
      </fieldset>
      <label className="trk-field">
        <span className="trk-muted">{t.comment}</span>
        <textarea value={comment} maxLength={RATING_COMMENT_MAX} rows={3} onChange={(e) => setComment(e.target.value)} />
      </label>
      {failed ? <p className="trk-error" role="alert">{t.error}</p> : null}
      <button type="submit" className="trk-btn trk-btn-primary" disabled={stars === null || busy}>
        {t.send}
      </button>
    </form>
  );
}

function Cancel({ t, token, onCancelled }: { t: TrackingStrings; token: string; onCancelled: (view: TrackingView | null) => void }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState(t.cancelReasons[0]!);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  if (!open) {
    return (
      <button type="button" className="trk-btn trk-btn-quiet" onClick={() => setOpen(true)} data-testid="cancel">
        {t.cancel}
      </button>
    );
  }
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const r = await post(token, "cancel", { reason });
    setBusy(false);
    setFailed(!r.ok);
    if (r.ok) {
      const parsed = trackingViewSchema.safeParse(r.data);
      onCancelled(parsed.success ? parsed.data : null);
      setOpen(false);
    }
  };
  return (
    <form className="trk-card" onSubmit={(e) => void submit(e)} aria-label={t.cancelTitle} data-testid="cancel-form">
      <fieldset className="trk-reasons">
        <legend className="trk-strong">{t.cancelTitle}</legend>
        <span className="trk-muted">{t.cancelReason}</span>
        {t.cancelReasons.map((r) => (
          <label key={r} className="trk-reason">
            <input type="radio" name="reason" value={r} checked={reason === r} onChange={() => setReason(r)} />
            <span>{r}</span>
          </label>
        ))}
      </fieldset>
      {failed ? <p className="trk-error" role="alert">{t.error}</p> : null}
      <div className="trk-actions">
        <button type="button" className="trk-btn trk-btn-quiet" onClick={() => setOpen(false)}>
          {t.cancelBack}
        </button>
        <button type="submit" className="trk-btn trk-btn-danger" disabled={busy}>
          {t.cancelConfirm}
        </button>
      </div>
    </form>
  );
}
