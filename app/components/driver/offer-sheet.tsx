"use client";
// An offer (or an advance order's confirmation request) over every screen:
// the countdown to its deadline, where from and to, the price, the arrival
// minutes and the distance, and two big answers; refusing asks for a reason
// from a short list.
import { useEffect, useState } from "react";
import type { Offer, PositionFix } from "./api";
import { useDriverI18n } from "./i18n";
import { addressOf, Field } from "./parts";
import { metresBetween } from "./use-positions";

export interface OfferShown {
  offer: Offer;
  /** When the deadline falls by this phone's clock (the server's seconds_left from its arrival); null: a confirmation without a countdown. */
  deadlineAt: number | null;
}

type Answer = { accept: true } | { accept: false; reason: string };

export function OfferSheet({ shown, position, onAnswer, onExpired }: { shown: OfferShown; position: PositionFix | null; onAnswer: (shown: OfferShown, answer: Answer) => Promise<void>; onExpired: () => void }) {
  const { t, money, km, time } = useDriverI18n();
  const [now, setNow] = useState(() => Date.now());
  const [refusing, setRefusing] = useState(false);
  const [busy, setBusy] = useState(false);
  const { offer, deadlineAt } = shown;
  const order = offer.order;
  const confirmation = order.state === "PREORDER_CONFIRM_REQUESTED";

  useEffect(() => {
    if (deadlineAt === null) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [deadlineAt]);
  const left = deadlineAt === null ? null : Math.max(0, Math.ceil((deadlineAt - now) / 1000));
  useEffect(() => {
    if (left === 0) onExpired();
  }, [left, onExpired]);

  const answer = async (a: Answer) => {
    setBusy(true);
    try {
      await onAnswer(shown, a);
    } finally {
      setBusy(false);
    }
  };
  const toPickup = position && order.pickup.lat !== null && order.pickup.lon !== null ? metresBetween(position, { lat: order.pickup.lat, lon: order.pickup.lon }) : null;
  const title = confirmation ? t.confirmTitle : offer.kind === "ADVANCE" ? t.offerAdvance : offer.kind === "CHAIN" ? t.offerChain : t.offerTitle;
  const total = Math.max(1, offer.seconds_left);

  return (
    <div className="drv-sheet-back">
      <div className="drv-sheet" role="alertdialog" aria-modal="true" aria-labelledby="drv-offer-title" data-testid="driver-offer">
        <div className="drv-sheet-head">
          <h2 id="drv-offer-title">{title}</h2>
          {left !== null ? (
            <div className="drv-countdown" role="timer" aria-label={t.countdownLabel(left)} data-testid="offer-countdown">
              <span>{t.secondsLeft(left)}</span>
              <span className="drv-countdown-bar" style={{ width: `${Math.min(100, (left / total) * 100)}%` }} />
            </div>
          ) : null}
        </div>
        <Field label={t.pickup}>
          <span className="drv-big" data-testid="offer-pickup">
            {addressOf(order.pickup)}
          </span>
        </Field>
        <Field label={t.destination}>{order.destination ? addressOf(order.destination) : t.noDestination}</Field>
        {order.pre_order_time ? <Field label={t.offerAdvance}>{time(order.pre_order_time)}</Field> : null}
        <div className="drv-facts">
          <Field label={t.price}>
            <span className="drv-big" data-testid="offer-price">
              {money(order.amount)}
            </span>
          </Field>
          <Field label={t.arrival}>{offer.arrival_minutes !== null ? t.minutes(offer.arrival_minutes) : "—"}</Field>
          <Field label={t.distanceToPickup}>{toPickup !== null ? t.km(km(toPickup)) : "—"}</Field>
          <Field label={t.trip}>{order.route_km !== null ? `${t.km(km(order.route_km * 1000))}${order.route_minutes !== null ? ` · ${t.minutes(order.route_minutes)}` : ""}` : "—"}</Field>
        </div>
        {order.comment ? <Field label={t.comment}>{order.comment}</Field> : null}
        {refusing ? (
          <fieldset className="drv-reasons">
            <legend>{t.refuseReason}</legend>
            {t.reasons.map((reason) => (
              <button key={reason} type="button" className="drv-btn drv-btn-block" disabled={busy} onClick={() => void answer({ accept: false, reason })}>
                {reason}
              </button>
            ))}
            <button type="button" className="drv-btn drv-btn-block drv-btn-ghost" onClick={() => setRefusing(false)}>
              {t.back}
            </button>
          </fieldset>
        ) : (
          <div className="drv-answers">
            <button type="button" className="drv-btn drv-btn-danger" disabled={busy} onClick={() => setRefusing(true)}>
              {t.refuse}
            </button>
            <button type="button" className="drv-btn drv-btn-primary" disabled={busy} onClick={() => void answer({ accept: true })}>
              {confirmation ? t.confirm : t.accept}
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
