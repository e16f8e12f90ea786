"use client";

// One sent message with every delivery attempt and failure.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { ErrorNotice, Modal } from "../ui";
import { toast } from "../toast";

export function MessageDialog({ id, canRetry, onClose }: { id: number; canRetry: boolean; onClose: () => void }) {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const message = useQuery(trpc.exchangeDesk.message.queryOptions({ id }, { refetchInterval: 3_000 }));
  const retry = useMutation(
    trpc.exchangeDesk.retry.mutationOptions({
      onSuccess: (r) => {
        toast.success(t.exchangeDesk.retried(r.id));
        setTimeout(() => void queryClient.invalidateQueries({ queryKey: trpc.exchangeDesk.pathKey() }), 600);
      },
    }),
  );
  const m = message.data;
  return (
    <Modal
      title={t.exchangeDesk.message(id)}
      onClose={onClose}
      width={760}
      footer={
        <>
          {canRetry && m && m.status !== "DELIVERED" ? (
            <button type="button" className="btn" onClick={() => retry.mutate({ id })} disabled={retry.isPending}>
              {t.exchangeDesk.retry}
            </button>
          ) : null}
          <button type="button" className="btn btn-primary" onClick={onClose}>
            {t.common.close}
          </button>
        </>
      }
    >
      {message.error ? (
        <ErrorNotice error={message.error} onRetry={() => message.refetch()} />
      ) : null}
      {m ? (
        <div data-testid="message-details" style={{ display: "flex", flexDirection: "column", gap: 10 }}>
          <dl className="facts">
            <dt>{t.exchangeDesk.columns.channel}</dt>
            <dd>{t.exchangeDesk.channels[m.channel] ?? m.channel}</dd>
            <dt>{t.exchangeDesk.columns.topic}</dt>
            <dd className="mono">{m.topic}</dd>
            <dt>{t.exchangeDesk.target}</dt>
            <dd className="mono small" style={{ wordBreak: "break-all" }}>
              {m.target}
            </dd>
            <dt>{t.exchangeDesk.deliveryId}</dt>
            <dd className="mono small">{m.deliveryId}</dd>
            <dt>{t.exchangeDesk.columns.status}</dt>
            <dd>
              <span className={`badge ${m.status === "DELIVERED" ? "badge-success" : m.status === "FAILED" ? "badge-danger" : "badge-moderation"}`}>{t.exchangeDesk.statuses[m.status]}</span>
              {m.deliveredAt ? <span className="muted"> · {fmt.dateTime(m.deliveredAt)}</span> : null}
              {m.status === "PENDING" ? <span className="muted"> · {t.exchangeDesk.columns.next}: {fmt.time(m.nextAttemptAt)}</span> : null}
            </dd>
          </dl>
          <h3>{t.exchangeDesk.deliveryAttempts}</h3>
          <div className="table-wrap" style={{ maxHeight: 220 }}>
            <table className="table" data-testid="attempts-table">
              <thead>
                <tr>
                  <th>{t.exchangeDesk.attemptColumns.at}</th>
                  <th>{t.exchangeDesk.attemptColumns.status}</th>
                  <th>{t.exchangeDesk.attemptColumns.result}</th>
                  <th className="num">{t.exchangeDesk.attemptColumns.duration}</th>
                </tr>
              </thead>
              <tbody>
                {m.attemptLog.map((a) => (
                  <tr key={a.id} className={a.error ? "row-refused" : ""}>
                    <td className="muted nowrap">{fmt.dateTime(a.at)}</td>
                    <td className="mono">{a.httpStatus !== null ? t.exchangeDesk.http(a.httpStatus) : t.common.none}</td>
                    <td className="small">
                      {a.error ? (
                        <span className="negative">{a.error === `HTTP ${a.httpStatus}` ? t.exchangeDesk.failedAttempt : a.error}</span>
                      ) : (
                        <span className="positive">{t.exchangeDesk.ok}</span>
                      )}
                    </td>
                    <td className="num muted">{t.exchangeDesk.ms(a.durationMs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {m.attemptLog.length === 0 ? <div className="pad muted">{t.exchangeDesk.noAttempts}</div> : null}
          </div>
          <h3>{t.exchangeDesk.payload}</h3>
          <pre className="json">{JSON.stringify(m.payload, null, 2)}</pre>
        </div>
      ) : (
        <div className="muted">{t.common.loading}</div>
      )}
    </Modal>
  );
}
