"use client";
// The phone blacklist: numbers whose orders are refused (by the API and by
// dispatchers alike). Add with a reason, remove. Audited.
import { useState } from "react";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { Icon } from "../icons";
import { EmptyState, PageHeader } from "../ui";
import { toast } from "../toast";
import { errorInfo } from "../errors";
import { useDebounced } from "../use-debounced";
import { FormError } from "./common";

export function BlacklistAdmin() {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim(), 250);
  const list = useQuery(trpc.referenceAdmin.blacklist.queryOptions({ q: q || undefined }, { placeholderData: keepPreviousData }));
  const [phone, setPhone] = useState("");
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.referenceAdmin.blacklist.pathKey() });
  const add = useMutation(
    trpc.referenceAdmin.blacklistAdd.mutationOptions({
      meta: { inlineError: true },
      onSuccess: (r) => {
        toast.success(t.refData.blacklist.added(fmt.phone(r.phone)));
        setPhone("");
        setReason("");
        refresh();
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  const remove = useMutation(
    trpc.referenceAdmin.blacklistRemove.mutationOptions({
      onSuccess: (r) => {
        toast.success(t.refData.blacklist.removed(fmt.phone(r.phone)));
        refresh();
      },
    }),
  );
  return (
    <>
      <PageHeader title={t.refData.tabs.blacklist} sub={<span className="muted">{t.refData.blacklist.hint}</span>} />
      <form
        className="card blacklist-form"
        onSubmit={(e) => {
          e.preventDefault();
          setError(null);
          add.mutate({ phone, reason });
        }}
      >
        <label className="field">
          <span>{t.refData.blacklist.phone}</span>
          <input name="phone" required inputMode="tel" placeholder="+7 900 000-00-00" value={phone} onChange={(e) => setPhone(e.target.value)} />
        </label>
        <label className="field">
          <span>{t.refData.blacklist.reason}</span>
          <input name="reason" placeholder={t.refData.blacklist.reasonPlaceholder} value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
        <button type="submit" className="btn btn-primary" disabled={add.isPending} style={{ height: 34 }}>
          <Icon name="plus" size={16} />
          {t.refData.blacklist.add}
        </button>
        <div style={{ gridColumn: "1 / -1" }}>
          <FormError error={error} />
        </div>
      </form>
      <div className="ref-toolbar">
        <label className="search">
          <Icon name="search" size={16} />
          <input type="search" value={search} placeholder={t.refData.blacklist.search} aria-label={t.refData.blacklist.search} onChange={(e) => setSearch(e.target.value)} />
        </label>
      </div>
      <div className="table-wrap">
        <table className="table" data-testid="blacklist-table">
          <thead>
            <tr>
              <th>{t.refData.blacklist.phone}</th>
              <th>{t.refData.blacklist.reason}</th>
              <th>{t.refData.blacklist.since}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.data?.map((b) => (
              <tr key={b.phone} data-phone={b.phone}>
                <td className="mono strong">{fmt.phone(b.phone)}</td>
                <td>{b.reason || t.common.none}</td>
                <td className="muted">{fmt.dateTime(b.createdAt)}</td>
                <td className="actions">
                  <button
                    type="button"
                    className="btn btn-small btn-ghost-danger"
                    onClick={() => {
                      if (window.confirm(t.refData.blacklist.confirmRemove(fmt.phone(b.phone)))) remove.mutate({ phone: b.phone });
                    }}
                  >
                    {t.refData.blacklist.remove}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data?.length === 0 ? <EmptyState title={t.refData.blacklist.empty} icon="phone" /> : null}
      </div>
    </>
  );
}
