"use client";

// Messages we sent (calls to the exchange, notifications to participants), a stuck one sent again.
import { useMemo, useState } from "react";
import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { EmptyState, ErrorNotice } from "../ui";
import { toast } from "../toast";
import { MessageDialog } from "./message-dialog";

export function SentTable({ canRetry }: { canRetry: boolean }) {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<"" | "PENDING" | "DELIVERED" | "FAILED">("");
  const [channel, setChannel] = useState<"" | "exchange-call" | "exchange">("");
  const [open, setOpen] = useState<number | null>(null);
  const outbox = useInfiniteQuery(
    trpc.exchangeDesk.outbox.infiniteQueryOptions(
      { status: status || undefined, channel: channel || undefined, limit: 50 },
      { getNextPageParam: (p) => p.nextCursor ?? undefined, placeholderData: keepPreviousData, refetchInterval: 5_000 },
    ),
  );
  const rows = useMemo(() => outbox.data?.pages.flatMap((p) => p.items) ?? [], [outbox.data]);
  const retry = useMutation(
    trpc.exchangeDesk.retry.mutationOptions({
      onSuccess: (r) => {
        toast.success(t.exchangeDesk.retried(r.id));
        setTimeout(() => void queryClient.invalidateQueries({ queryKey: trpc.exchangeDesk.pathKey() }), 600);
      },
    }),
  );
  return (
    <>
      <div className="filters">
        <select aria-label={t.exchangeDesk.columns.channel} value={channel} onChange={(e) => setChannel(e.target.value as typeof channel)}>
          <option value="">{t.exchangeDesk.anyChannel}</option>
          {(["exchange-call", "exchange"] as const).map((c) => (
            <option key={c} value={c}>
              {t.exchangeDesk.channels[c]}
            </option>
          ))}
        </select>
        <select aria-label={t.exchangeDesk.columns.status} value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
          <option value="">{t.exchangeDesk.anyStatus}</option>
          {(["PENDING", "DELIVERED", "FAILED"] as const).map((c) => (
            <option key={c} value={c}>
              {t.exchangeDesk.statuses[c]}
            </option>
          ))}
        </select>
      </div>
      {outbox.error ? (
        <ErrorNotice error={outbox.error} onRetry={() => outbox.refetch()} />
      ) : null}
      <div className="table-wrap">
        <table className="table" data-testid="sent-table">
          <thead>
            <tr>
              <th>№</th>
              <th>{t.exchangeDesk.columns.created}</th>
              <th>{t.exchangeDesk.columns.channel}</th>
              <th>{t.exchangeDesk.columns.topic}</th>
              <th>{t.exchangeDesk.columns.order}</th>
              <th>{t.exchangeDesk.columns.status}</th>
              <th className="num">{t.exchangeDesk.columns.attempts}</th>
              <th>{t.exchangeDesk.columns.lastError}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((m) => (
              <tr key={m.id} data-message-id={m.id} data-topic={m.topic} data-status={m.status} data-order-id={m.orderId ?? ""} className="row-click" tabIndex={0} onClick={() => setOpen(m.id)} onKeyDown={(e) => e.key === "Enter" && setOpen(m.id)}>
                <td className="mono">{m.id}</td>
                <td className="muted nowrap">{fmt.when(m.createdAt)}</td>
                <td className="small">{t.exchangeDesk.channels[m.channel] ?? m.channel}</td>
                <td className="mono">{m.topic}</td>
                <td className="mono">{m.orderId ? `№${m.orderId}` : t.common.none}</td>
                <td>
                  <span className={`badge ${m.status === "DELIVERED" ? "badge-success" : m.status === "FAILED" ? "badge-danger" : "badge-moderation"}`} data-status={m.status}>
                    {t.exchangeDesk.statuses[m.status]}
                  </span>
                  {m.status === "PENDING" && m.attempts > 0 ? <div className="muted small">{fmt.time(m.nextAttemptAt)}</div> : null}
                </td>
                <td className="num">{m._count.attemptLog}</td>
                <td className="small error-cell" title={m.lastError ?? ""}>
                  {m.lastError ?? t.common.none}
                </td>
                <td className="actions" onClick={(e) => e.stopPropagation()}>
                  {canRetry && m.status !== "DELIVERED" ? (
                    <button type="button" className="btn btn-small" onClick={() => retry.mutate({ id: m.id })} disabled={retry.isPending}>
                      {t.exchangeDesk.retry}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {!outbox.isLoading && rows.length === 0 ? <EmptyState title={t.exchangeDesk.emptySent} icon="exchange" /> : null}
        {outbox.hasNextPage ? (
          <div className="pad">
            <button type="button" className="btn" onClick={() => void outbox.fetchNextPage()} disabled={outbox.isFetchingNextPage}>
              {t.common.loadMore}
            </button>
          </div>
        ) : null}
      </div>
      {open !== null ? <MessageDialog id={open} canRetry={canRetry} onClose={() => setOpen(null)} /> : null}
    </>
  );
}
