"use client";
// The audit log: every operator action, newest first.
import { useMemo, useState } from "react";
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { useDebounced } from "../use-debounced";
import { Icon } from "../icons";
import { ErrorNotice, PageHeader } from "../ui";

function summary(details: unknown): string {
  if (!details || typeof details !== "object") return "";
  const d = details as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof d.from === "string" && typeof d.to === "string") parts.push(`${d.from} → ${d.to}`);
  if (d.changes && typeof d.changes === "object") parts.push(Object.keys(d.changes).join(", "));
  if (typeof d.email === "string") parts.push(d.email);
  if (typeof d.reason === "string") parts.push(d.reason);
  if (d.error) parts.push(String(d.error));
  if (!parts.length && d.input && typeof d.input === "object") parts.push(JSON.stringify(d.input).slice(0, 160));
  return parts.join(" · ");
}

export function AuditLogView() {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const [action, setAction] = useState("");
  const a = useDebounced(action.trim(), 250);
  const audit = useInfiniteQuery(
    trpc.admin.audit.infiniteQueryOptions({ action: a || undefined, limit: 100 }, { getNextPageParam: (p) => p.nextCursor ?? undefined, placeholderData: keepPreviousData }),
  );
  const rows = useMemo(() => audit.data?.pages.flatMap((p) => p.items) ?? [], [audit.data]);
  return (
    <>
      <PageHeader title={t.audit.title} />
      <div className="filters">
        <label className="search">
          <Icon name="search" size={16} />
          <input type="search" value={action} placeholder={t.audit.filterAction} aria-label={t.audit.filterAction} onChange={(e) => setAction(e.target.value)} />
        </label>
      </div>
      {audit.error ? (
        <ErrorNotice error={audit.error} onRetry={() => audit.refetch()} />
      ) : null}
      <div className="table-wrap">
        <table className="table" data-testid="audit-table">
          <thead>
            <tr>
              <th>{t.audit.at}</th>
              <th>{t.audit.user}</th>
              <th>{t.audit.action}</th>
              <th>{t.audit.object}</th>
              <th>{t.audit.details}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const d = (r.details ?? {}) as Record<string, unknown>;
              const refused = d.ok === false;
              return (
                <tr key={r.id} data-action={r.action} className={refused ? "row-refused" : ""}>
                  <td className="mono muted nowrap">{fmt.dateTime(r.at)}</td>
                  <td>{r.user ? r.user.name : <span className="muted">{t.audit.anonymous}</span>}</td>
                  <td className="mono">
                    {r.action}
                    {refused ? <span className="badge badge-danger">{t.audit.refused}</span> : null}
                  </td>
                  <td className="mono">
                    {r.entity}
                    {r.entityId ? ` #${r.entityId}` : ""}
                  </td>
                  <td className="small truncate" title={JSON.stringify(r.details)}>
                    {summary(r.details)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {audit.hasNextPage ? (
          <div className="pad">
            <button type="button" className="btn" onClick={() => void audit.fetchNextPage()} disabled={audit.isFetchingNextPage}>
              {t.common.loadMore}
            </button>
          </div>
        ) : null}
      </div>
    </>
  );
}
