"use client";
// Messages between dispatch and drivers: write to one driver (by call sign),
// to every driver of a service or to the drivers on shift in a region; the
// latest messages with the drivers' unread answers marked, each answer marked
// read with one click. Live: a driver's answer refreshes the page.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { useLiveEvents } from "../live";
import { EmptyState, ErrorNotice, PageHeader } from "../ui";
import { toast } from "../toast";
import { errorInfo } from "../errors";

type Audience = "driver" | "service" | "region";

export function MessagesPage() {
  const { t, fmt, locale } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const lookups = useQuery(trpc.reference.lookups.queryOptions(undefined, { staleTime: 5 * 60_000 }));
  const unread = useQuery(trpc.messages.unread.queryOptions());
  const recent = useQuery(trpc.messages.recent.queryOptions({ limit: 100 }));
  const [audience, setAudience] = useState<Audience>("driver");
  const [callSign, setCallSign] = useState("");
  const [serviceId, setServiceId] = useState<number | "">("");
  const [regionId, setRegionId] = useState<number | "">("");
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.messages.unread.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.messages.recent.pathKey() });
  };
  useLiveEvents((event) => {
    if (event.type === "driver.message" || event.type === "resync") refresh();
  });
  const send = useMutation(
    trpc.messages.send.mutationOptions({
      meta: { inlineError: true },
      onSuccess: (r) => {
        toast.success(t.messages.sent(r.sent));
        setText("");
        refresh();
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  const markRead = useMutation(trpc.messages.markRead.mutationOptions({ onSuccess: refresh }));

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const to =
      audience === "driver" ? (callSign.trim() ? { callSign: callSign.trim() } : null) : audience === "service" ? (serviceId ? { serviceId } : null) : regionId ? { regionId } : null;
    if (!to || !text.trim()) return;
    send.mutate({ to, text });
  };

  return (
    <div className="page">
      <PageHeader title={t.messages.title} sub={<span data-testid="messages-unread">{t.messages.unread(unread.data ?? 0)}</span>} />
      <form className="card" onSubmit={submit} aria-label={t.messages.send}>
        <div className="grid-3">
          <label className="field">
            <span>{t.messages.to}</span>
            <select name="audience" value={audience} onChange={(e) => setAudience(e.target.value as Audience)}>
              <option value="driver">{t.messages.toDriver}</option>
              <option value="service">{t.messages.toService}</option>
              <option value="region">{t.messages.toRegion}</option>
            </select>
          </label>
          {audience === "driver" ? (
            <label className="field">
              <span>{t.messages.callSign}</span>
              <input name="callSign" required value={callSign} onChange={(e) => setCallSign(e.target.value)} />
            </label>
          ) : audience === "service" ? (
            <label className="field">
              <span>{t.messages.service}</span>
              <select name="serviceId" required value={serviceId} onChange={(e) => setServiceId(e.target.value ? Number(e.target.value) : "")}>
                <option value="" />
                {lookups.data?.services.map((s) => (
                  <option key={s.id} value={s.id}>
                    {locale === "en" ? s.nameEn : s.name}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <label className="field">
              <span>{t.messages.region}</span>
              <select name="regionId" required value={regionId} onChange={(e) => setRegionId(e.target.value ? Number(e.target.value) : "")}>
                <option value="" />
                {lookups.data?.regions.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
        <label className="field">
          <span>{t.messages.text}</span>
          <textarea name="text" required maxLength={1000} rows={3} value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        {error ? (
          <div className="form-error" role="alert">
            {error}
          </div>
        ) : null}
        <button type="submit" className="btn btn-primary" disabled={send.isPending}>
          {t.messages.send}
        </button>
      </form>
      {recent.error ? <ErrorNotice error={recent.error} onRetry={() => recent.refetch()} /> : null}
      <div className="table-wrap">
        <table className="table" data-testid="messages-table">
          <tbody>
            {recent.data?.map((m) => (
              <tr key={m.id} data-unread={m.sender === "DRIVER" && !m.readAt ? "yes" : undefined}>
                <td className="nowrap muted">{fmt.dateTime(m.createdAt)}</td>
                <td className="strong">{m.callSign}</td>
                <td>{m.sender === "DRIVER" ? t.messages.fromDriver : t.messages.fromDispatcher}</td>
                <td style={{ whiteSpace: "pre-wrap" }}>{m.text}</td>
                <td className="actions">
                  {m.sender === "DRIVER" && !m.readAt ? (
                    <button type="button" className="btn btn-small" onClick={() => markRead.mutate({ driverId: m.driverId })}>
                      {t.messages.markRead}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {recent.data?.length === 0 ? <EmptyState title={t.messages.empty} /> : null}
      </div>
    </div>
  );
}
