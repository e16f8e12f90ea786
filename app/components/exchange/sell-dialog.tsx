"use client";

// Selling a free order of ours on the exchange.
import { useState } from "react";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { useDebounced } from "../use-debounced";
import { Icon } from "../icons";
import { EmptyState, Modal, StateBadge } from "../ui";
import { toast } from "../toast";
import { errorInfo } from "../errors";

export function SellDialog({ onClose }: { onClose: () => void }) {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim(), 250);
  const [error, setError] = useState<string | null>(null);
  const orders = useQuery(trpc.exchangeDesk.sellable.queryOptions({ q: q || undefined, limit: 30 }, { placeholderData: keepPreviousData }));
  const sell = useMutation(
    trpc.exchangeDesk.sell.mutationOptions({
      meta: { inlineError: true },
      onSuccess: (r) => {
        toast.success(t.exchangeDesk.sold(r.orderId));
        void queryClient.invalidateQueries({ queryKey: trpc.exchangeDesk.pathKey() });
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  return (
    <Modal
      title={t.exchangeDesk.sellTitle}
      onClose={onClose}
      width={760}
      footer={
        <button type="button" className="btn" onClick={onClose}>
          {t.common.close}
        </button>
      }
    >
      <p className="muted" style={{ margin: 0 }}>
        {t.exchangeDesk.sellHint}
      </p>
      <label className="search" style={{ maxWidth: "none" }}>
        <Icon name="search" size={16} />
        <input type="search" value={search} placeholder={t.exchangeDesk.search} aria-label={t.exchangeDesk.search} onChange={(e) => setSearch(e.target.value)} />
      </label>
      {error ? (
        <div className="notice notice-error" role="alert">
          {error}
        </div>
      ) : null}
      <div className="table-wrap" style={{ maxHeight: 420 }}>
        <table className="table" data-testid="sellable-table">
          <tbody>
            {orders.data?.map((o) => (
              <tr key={o.id} data-order-id={o.id}>
                <td className="mono strong">№{o.id}</td>
                <td className="muted nowrap">{fmt.when(o.createdAt)}</td>
                <td>
                  {[o.street, o.house].filter(Boolean).join(", ")}
                  {o.dst ? <span className="muted"> → {o.dst}</span> : null}
                  {o.exchangeLink?.note ? <div className="muted small">{o.exchangeLink.note}</div> : null}
                </td>
                <td className="num">{fmt.money(o.amount)}</td>
                <td>
                  <StateBadge state={o.state} />
                </td>
                <td className="actions">
                  <button
                    type="button"
                    className="btn btn-small btn-primary"
                    disabled={sell.isPending}
                    onClick={() => {
                      setError(null);
                      sell.mutate({ orderId: o.id });
                    }}
                  >
                    {t.exchangeDesk.sellOne}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {orders.data?.length === 0 ? <EmptyState title={t.exchangeDesk.noSellable} icon="exchange" /> : null}
      </div>
    </Modal>
  );
}
