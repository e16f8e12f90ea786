"use client";
// The order card's distribution part: every offer of the order (who, when,
// the outcome and the reason), pause/resume of automatic dispatch, the
// candidates with their arrival times (send the order to one of them), and
// taking the order back from its driver. Live: refreshed on offer events.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { useLiveEvents } from "../live";
import { toast } from "../toast";
import { errorInfo } from "../errors";
import { useDispatchStrings } from "./strings";
import { machineText } from "@/shared/i18n/console/machine-text";

const OPEN_STATES = ["FREE", "FREE_LONG", "ORDER_ON_RADIO", "PREORDER_FREE"];
const HELD_STATES = ["SENT_TO_DRIVER", "RECEIVED_BY_DRIVER", "CONFIRMED", "CONFIRMED_CLIENT_NOTIFIED", "BOUND", "AWAITING_CLIENT", "AWAITING_CLIENT_NOTIFIED", "AWAITING_CLIENT_LONG"];

export function OrderDispatch({ orderId, state }: { orderId: number; state: string }) {
  const { t, fmt, locale } = useI18n();
  const d = useDispatchStrings();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const info = useQuery(trpc.dispatch.order.queryOptions({ orderId }));
  const open = OPEN_STATES.includes(state);
  const candidates = useQuery({ ...trpc.dispatch.candidates.queryOptions({ orderId }), enabled: open, refetchInterval: open ? 10_000 : false });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.dispatch.order.queryKey({ orderId }) });
    void queryClient.invalidateQueries({ queryKey: trpc.dispatch.candidates.queryKey({ orderId }) });
    void queryClient.invalidateQueries({ queryKey: trpc.orders.get.queryKey({ id: orderId }) });
  };
  useLiveEvents((event) => {
    if (event.type === "offer.changed" && event.orderId === orderId) refresh();
  });
  const onError = (e: unknown) => toast.error(errorInfo(e, t).message);
  const pause = useMutation(trpc.dispatch.pause.mutationOptions({ onSuccess: refresh, onError }));
  const send = useMutation(trpc.dispatch.send.mutationOptions({ onSuccess: () => (toast.success(d.sent), refresh()), onError }));
  const takeBack = useMutation(trpc.dispatch.takeBack.mutationOptions({ onSuccess: () => (toast.success(d.takenBack), refresh()), onError }));
  const control = info.data?.control;
  const attempts = info.data?.attempts ?? [];
  const live = attempts.some((a) => a.state === "LIVE");
  return (
    <section className="card" aria-label={d.card} data-testid="order-dispatch">
      <h3>{d.card}</h3>
      {control?.paused ? <div className="notice">{d.paused}</div> : null}
      <div className="row gap">
        {open ? (
          <button type="button" className="btn" disabled={pause.isPending} onClick={() => pause.mutate({ orderId, paused: !control?.paused })}>
            {control?.paused ? d.resume : d.pause}
          </button>
        ) : null}
        {live || HELD_STATES.includes(state) ? (
          <button type="button" className="btn" disabled={takeBack.isPending} onClick={() => takeBack.mutate({ orderId })}>
            {d.takeBack}
          </button>
        ) : null}
      </div>
      <h4>{d.attempts_}</h4>
      {attempts.length === 0 ? (
        <div className="muted">{d.noAttempts}</div>
      ) : (
        <table className="table compact" data-testid="order-attempts">
          <tbody>
            {attempts.map((a) => (
              <tr key={a.id}>
                <td className="mono">{fmt.time(new Date(a.sentAt))}</td>
                <td className="strong">{a.callSign}</td>
                <td>{d.outcomes[a.state] ?? a.state}</td>
                <td className="muted small">{d.sources[a.source] ?? a.source}{a.arrivalSeconds !== null ? ` · ${d.minutes(Math.max(1, Math.round(a.arrivalSeconds / 60)))}` : ""}</td>
                <td className="muted small">{machineText(a.reason, locale)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open ? (
        <>
          <h4>{d.candidates}</h4>
          {(candidates.data ?? []).length === 0 ? (
            <div className="muted">{d.noCandidates}</div>
          ) : (
            <table className="table compact" data-testid="order-candidates">
              <tbody>
                {(candidates.data ?? []).map((c) => (
                  <tr key={c.driverId} className={c.eligible ? "" : "muted"}>
                    <td className="strong">{c.callSign}</td>
                    <td>
                      {d.arrival} {d.minutes(Math.max(1, Math.round(c.arrivalSeconds / 60)))}
                    </td>
                    <td className="small">
                      {[c.queuePosition ? d.queuePlace(c.queuePosition) : null, c.chain ? d.chain : null, c.eligible ? null : d.ineligible].filter(Boolean).join(" · ")}
                    </td>
                    <td>
                      <button type="button" className="btn btn-small" disabled={send.isPending || live} onClick={() => send.mutate({ orderId, driverId: c.driverId })}>
                        {d.send}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      ) : null}
    </section>
  );
}
