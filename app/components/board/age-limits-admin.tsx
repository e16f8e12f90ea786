"use client";
// Reference data: how long an order may wait, per kind of wait, before its
// row on the board turns amber, then red (orders.saveAgeLimit, audited).
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { formatAge, type AgeLimit } from "@/shared/orders/age";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { ErrorNotice, PageHeader } from "../ui";
import { toast } from "../toast";
import { errorInfo } from "../errors";

function LimitRow({ limit }: { limit: AgeLimit }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [amber, setAmber] = useState(String(limit.amberSeconds));
  const [red, setRed] = useState(String(limit.redSeconds));
  const [error, setError] = useState<string | null>(null);
  const title = t.age.kinds[limit.kind];
  const save = useMutation(
    trpc.orders.saveAgeLimit.mutationOptions({
      meta: { inlineError: true },
      onSuccess: () => {
        toast.success(t.age.saved(title));
        setError(null);
        void queryClient.invalidateQueries({ queryKey: trpc.orders.ageLimits.queryKey() });
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  const seconds = (v: string) => (/^\d{1,6}$/.test(v.trim()) ? Number(v.trim()) : null);
  const changed = amber !== String(limit.amberSeconds) || red !== String(limit.redSeconds);
  return (
    <tr data-kind={limit.kind}>
      <th scope="row">{title}</th>
      <td>
        <input
          className="num"
          inputMode="numeric"
          aria-label={`${title}: ${t.age.amber}`}
          value={amber}
          onChange={(e) => setAmber(e.target.value)}
          aria-invalid={seconds(amber) === null || undefined}
        />
        <span className="muted small"> {seconds(amber) !== null ? formatAge(seconds(amber)!) : ""}</span>
      </td>
      <td>
        <input
          className="num"
          inputMode="numeric"
          aria-label={`${title}: ${t.age.red}`}
          value={red}
          onChange={(e) => setRed(e.target.value)}
          aria-invalid={seconds(red) === null || undefined}
        />
        <span className="muted small"> {seconds(red) !== null ? formatAge(seconds(red)!) : ""}</span>
      </td>
      <td>
        <button
          type="button"
          className="btn btn-small btn-primary"
          disabled={!changed || save.isPending || seconds(amber) === null || seconds(red) === null}
          onClick={() => save.mutate({ kind: limit.kind, amberSeconds: seconds(amber)!, redSeconds: seconds(red)! })}
        >
          {t.common.save}
        </button>
        {error ? (
          <div className="field-error" role="alert">
            {error}
          </div>
        ) : null}
      </td>
    </tr>
  );
}

export function AgeLimitsAdmin() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const limits = useQuery(trpc.orders.ageLimits.queryOptions());
  return (
    <>
      <PageHeader title={t.age.limitsTitle} sub={<span className="muted small">{t.age.limitsHint}</span>} />
      {limits.error ? <ErrorNotice error={limits.error} onRetry={() => limits.refetch()} /> : null}
      {limits.data ? (
        <table className="table" data-testid="age-limits">
          <thead>
            <tr>
              <th scope="col">{t.age.kind}</th>
              <th scope="col">{t.age.amber}</th>
              <th scope="col">{t.age.red}</th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {limits.data.map((l) => (
              <LimitRow key={`${l.kind}:${l.amberSeconds}:${l.redSeconds}`} limit={l} />
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
