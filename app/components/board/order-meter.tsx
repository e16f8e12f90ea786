"use client";
// The taximeter on the console's order card: the running fare of a METERED
// order while the trip goes on (refreshed every few seconds), the final one
// once completed, with its parts. Nothing for a fixed price.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";

const LIVE_STATES = new Set(["AWAITING_CLIENT", "IN_PROCESS", "AWAITING_PAYMENT"]);

function duration(seconds: number, t: ReturnType<typeof useI18n>["t"]): string {
  return t.meter.minutes(Math.floor(seconds / 60), Math.round(seconds % 60));
}

export function OrderMeter({ orderId, state }: { orderId: number; state: string }) {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const live = LIVE_STATES.has(state);
  const meter = useQuery({ ...trpc.meter.order.queryOptions({ orderId }), refetchInterval: live ? 5_000 : false });
  const data = meter.data;
  if (!data) return null;
  const parts: Array<[string, number]> = [
    [t.meter.boarding, data.fare.boarding],
    [t.meter.distanceCost, data.fare.distance],
    [t.meter.timeCost, data.fare.time],
    [t.meter.waitingCost, data.fare.waiting],
    [t.meter.extras, data.fare.extras],
    [t.meter.minimumAdded, data.fare.minimumAdded],
    [t.meter.rounding, data.fare.rounding],
  ];
  return (
    <section className="card" aria-label={t.meter.title} data-testid="order-meter">
      <h3>{t.meter.title}</h3>
      <dl className="facts">
        <dt>{t.meter.distance}</dt>
        <dd>{t.meter.km((data.reading.distanceMetres / 1000).toFixed(2))}</dd>
        <dt>{t.meter.tripTime}</dt>
        <dd>{duration(data.reading.tripSeconds, t)}</dd>
        <dt>{t.meter.waiting}</dt>
        <dd>{duration(data.reading.waitingSeconds, t)}</dd>
        {parts
          .filter(([, kopecks]) => kopecks !== 0)
          .map(([label, kopecks]) => (
            <FarePart key={label} label={label} value={fmt.money(kopecks)} />
          ))}
        <dt className="strong">{t.meter.fare}</dt>
        <dd className="strong" data-testid="order-meter-fare">
          {fmt.money(data.fare.total)}
        </dd>
      </dl>
    </section>
  );
}

function FarePart({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt className="muted">{label}</dt>
      <dd className="money-cell">{value}</dd>
    </>
  );
}
