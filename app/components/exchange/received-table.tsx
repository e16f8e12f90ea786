"use client";

// Notifications we received from the exchange.
import { useMemo, useState } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { EmptyState, ErrorNotice, Modal } from "../ui";
import { POLL_MS } from "./common";

export function ReceivedTable() {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const [open, setOpen] = useState<{ path: string; payload: unknown } | null>(null);
  const inbound = useInfiniteQuery(
    trpc.exchangeDesk.inbound.infiniteQueryOptions({ limit: 50 }, { getNextPageParam: (p) => p.nextCursor ?? undefined, refetchInterval: POLL_MS }),
  );
  const rows = useMemo(() => inbound.data?.pages.flatMap((p) => p.items) ?? [], [inbound.data]);
  return (
    <>
      {inbound.error ? (
        <ErrorNotice error={inbound.error} onRetry={() => inbound.refetch()} />
      ) : null}
      <div className="table-wrap">
        <table className="table" data-testid="received-table">
          <thead>
            <tr>
              <th>{t.exchangeDesk.columns.received}</th>
              <th>{t.exchangeDesk.columns.topic}</th>
              <th>{t.exchangeDesk.columns.exchangeId}</th>
              <th>{t.exchangeDesk.columns.order}</th>
              <th>{t.exchangeDesk.columns.reason}</th>
              <th>{t.exchangeDesk.deliveryId}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((n) => (
              <tr key={n.deliveryId} data-path={n.path} className="row-click" tabIndex={0} onClick={() => setOpen({ path: n.path, payload: n.payload })} onKeyDown={(e) => e.key === "Enter" && setOpen({ path: n.path, payload: n.payload })}>
                <td className="muted nowrap">{fmt.when(n.receivedAt)}</td>
                <td className="mono strong">{n.path}</td>
                <td className="mono">{n.summary.id || t.common.none}</td>
                <td className="mono">{n.summary.orderId || t.common.none}</td>
                <td className="small">{n.summary.reason || t.common.none}</td>
                <td className="mono small muted">{n.deliveryId}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {!inbound.isLoading && rows.length === 0 ? <EmptyState title={t.exchangeDesk.emptyReceived} icon="exchange" /> : null}
        {inbound.hasNextPage ? (
          <div className="pad">
            <button type="button" className="btn" onClick={() => void inbound.fetchNextPage()} disabled={inbound.isFetchingNextPage}>
              {t.common.loadMore}
            </button>
          </div>
        ) : null}
      </div>
      {open ? (
        <Modal
          title={t.exchangeDesk.payloadOf(open.path)}
          onClose={() => setOpen(null)}
          width={700}
          footer={
            <button type="button" className="btn btn-primary" onClick={() => setOpen(null)}>
              {t.common.close}
            </button>
          }
        >
          <pre className="json">{JSON.stringify(open.payload, null, 2)}</pre>
        </Modal>
      ) : null}
    </>
  );
}
