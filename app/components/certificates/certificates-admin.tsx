"use client";
// The exchange operator's certificate authority: the authorities, the
// participants' users' PKCS#12 files (downloaded once, never stored) and
// revocation.
import { useState, type ReactNode } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { Icon } from "../icons";
import { ErrorNotice, FormModal, Modal, PageHeader } from "../ui";
import { toast } from "../toast";
import { errorInfo } from "../errors";

type Dialog = "root" | "intermediate" | "issue" | null;

function download(fileName: string, base64: string): void {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: "application/x-pkcs12" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function Field({ label, hint, children }: { label: string; hint?: string; children: ReactNode }) {
  return (
    <label className="field">
      <span>{label}</span>
      {children}
      {hint ? <span className="hint">{hint}</span> : null}
    </label>
  );
}

function AuthorityDialog({ kind, onClose }: { kind: "root" | "intermediate"; onClose: () => void }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [commonName, setCommonName] = useState(kind === "root" ? "Taxi Exchange Root CA" : "Taxi Exchange Participants CA");
  const [error, setError] = useState<string | null>(null);
  const options = {
    meta: { inlineError: true },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: trpc.certificates.list.queryKey() });
      onClose();
    },
    onError: (e: Parameters<typeof errorInfo>[0]) => setError(errorInfo(e, t).message),
  };
  const root = useMutation(trpc.certificates.createRoot.mutationOptions(options));
  const intermediate = useMutation(trpc.certificates.createIntermediate.mutationOptions(options));
  const pending = root.isPending || intermediate.isPending;
  const submit = () => (kind === "root" ? root.mutate({ commonName }) : intermediate.mutate({ commonName }));
  const title = kind === "root" ? t.certificates.createRoot : t.certificates.createIntermediate;
  return (
    <FormModal title={title} onClose={onClose} width={520} onSubmit={submit} pending={pending} submitLabel={title}>
      <Field label={t.certificates.commonName}>
        <input name="commonName" required value={commonName} onChange={(e) => setCommonName(e.target.value)} />
      </Field>
      {error ? (
        <div className="notice notice-error" role="alert">
          {error}
        </div>
      ) : null}
      <button type="submit" hidden />
    </FormModal>
  );
}

function IssueDialog({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const participants = useQuery(trpc.certificates.participants.queryOptions());
  const [participantId, setParticipantId] = useState<number | null>(null);
  const [userName, setUserName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [days, setDays] = useState("365");
  const [issued, setIssued] = useState<{ fileName: string; pkcs12: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const issue = useMutation(
    trpc.certificates.issue.mutationOptions({
      meta: { inlineError: true },
      onSuccess: (file) => {
        setIssued(file);
        download(file.fileName, file.pkcs12);
        void queryClient.invalidateQueries({ queryKey: trpc.certificates.list.queryKey() });
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  const chosen = participantId ?? participants.data?.[0]?.id ?? null;
  if (issued) {
    return (
      <Modal
        title={t.certificates.issuedTitle}
        onClose={onClose}
        width={560}
        footer={
          <>
            <button type="button" className="btn" onClick={() => download(issued.fileName, issued.pkcs12)}>
              {t.certificates.download}
            </button>
            <button type="button" className="btn btn-primary" onClick={onClose}>
              {t.common.done}
            </button>
          </>
        }
      >
        <p className="notice notice-warn" data-testid="issued-certificate">
          {t.certificates.issuedText(issued.fileName)}
        </p>
      </Modal>
    );
  }
  const submit = () => {
    if (chosen === null) return;
    issue.mutate({ participantId: chosen, userName, email: email.trim() || undefined, password, days: Number(days) || 365 });
  };
  return (
    <FormModal title={t.certificates.issue} onClose={onClose} width={560} onSubmit={submit} pending={issue.isPending || chosen === null} submitLabel={t.certificates.issue}>
      <Field label={t.certificates.participant}>
        <select name="participantId" value={chosen ?? ""} onChange={(e) => setParticipantId(Number(e.target.value))}>
          {participants.data?.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t.certificates.userName}>
        <input name="userName" required value={userName} onChange={(e) => setUserName(e.target.value)} />
      </Field>
      <Field label={t.certificates.email}>
        <input name="email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      </Field>
      <Field label={t.certificates.password} hint={t.certificates.passwordHint}>
        <input name="password" type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </Field>
      <Field label={t.certificates.days}>
        <input name="days" inputMode="numeric" value={days} onChange={(e) => setDays(e.target.value.replace(/\D/g, ""))} />
      </Field>
      {error ? (
        <div className="notice notice-error" role="alert">
          {error}
        </div>
      ) : null}
      <button type="submit" hidden />
    </FormModal>
  );
}

export function CertificatesAdmin() {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.certificates.list.queryOptions());
  const [dialog, setDialog] = useState<Dialog>(null);
  const revoke = useMutation(
    trpc.certificates.revoke.mutationOptions({
      onSuccess: () => {
        toast.success(t.certificates.revoked);
        void queryClient.invalidateQueries({ queryKey: trpc.certificates.list.queryKey() });
      },
    }),
  );
  const rows = list.data ?? [];
  const hasRoot = rows.some((c) => c.kind === "ROOT" && c.status === "active");
  const hasIntermediate = rows.some((c) => c.kind === "INTERMEDIATE" && c.status === "active");
  return (
    <>
      <PageHeader title={t.certificates.title} sub={t.certificates.sub}>
        {!hasRoot ? (
          <button type="button" className="btn" onClick={() => setDialog("root")}>
            {t.certificates.createRoot}
          </button>
        ) : (
          <button type="button" className="btn" onClick={() => setDialog("intermediate")}>
            {t.certificates.createIntermediate}
          </button>
        )}
        <button type="button" className="btn btn-primary" disabled={!hasRoot || !hasIntermediate} onClick={() => setDialog("issue")}>
          <Icon name="key" size={16} />
          {t.certificates.issue}
        </button>
      </PageHeader>
      {list.error ? (
        <ErrorNotice error={list.error} onRetry={() => list.refetch()} />
      ) : null}
      {list.isSuccess && !hasRoot ? <p className="notice notice-warn">{t.certificates.noRoot}</p> : null}
      <div className="table-wrap">
        <table className="table" data-testid="certificates-table">
          <thead>
            <tr>
              <th>{t.certificates.subject}</th>
              <th>{t.certificates.participant}</th>
              <th className="mono">{t.certificates.serial}</th>
              <th>{t.certificates.validUntil}</th>
              <th>{t.certificates.state}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.serial} data-serial={c.serial} className={c.status === "active" ? "" : "row-disabled"}>
                <td>
                  <span className="strong">{c.commonName}</span> <span className="muted small">{t.certificates.kind[c.kind] ?? c.kind}</span>
                </td>
                <td>{c.participantName ?? <span className="muted">{t.common.none}</span>}</td>
                <td className="mono small">{c.serial.slice(0, 16)}</td>
                <td className="muted">{fmt.dateTime(c.notAfter)}</td>
                <td>
                  <span className={`badge ${c.status === "active" ? "badge-success" : "badge-muted"}`}>{t.certificates.status[c.status] ?? c.status}</span>
                </td>
                <td className="actions">
                  {c.status === "active" ? (
                    <button
                      type="button"
                      className="btn btn-small btn-ghost-danger"
                      onClick={() => {
                        if (window.confirm(t.certificates.confirmRevoke(c.commonName))) revoke.mutate({ serial: c.serial });
                      }}
                    >
                      {t.certificates.revoke}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
            {list.isSuccess && rows.length === 0 ? (
              <tr>
                <td colSpan={6} className="muted">
                  {t.certificates.empty}
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      {dialog === "root" || dialog === "intermediate" ? <AuthorityDialog kind={dialog} onClose={() => setDialog(null)} /> : null}
      {dialog === "issue" ? <IssueDialog onClose={() => setDialog(null)} /> : null}
    </>
  );
}
