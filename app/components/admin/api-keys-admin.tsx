"use client";
// Integration API keys: issue (the key is shown once), revoke, and set the
// status callback URL template of each.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { Icon } from "../icons";
import { ErrorNotice, FormModal, Modal, PageHeader } from "../ui";
import { toast } from "../toast";
import { errorInfo } from "../errors";

function IssueDialog({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [callback, setCallback] = useState("");
  const [issued, setIssued] = useState<{ name: string; key: string; callbackSecret: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const issue = useMutation(
    trpc.admin.apiKeys.issue.mutationOptions({
      meta: { inlineError: true },
      onSuccess: (key) => {
        setIssued({ name: key.name, key: key.key, callbackSecret: key.callbackSecret });
        void queryClient.invalidateQueries({ queryKey: trpc.admin.apiKeys.list.queryKey() });
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  if (issued) {
    return (
      <Modal
        title={t.apiKeys.issuedTitle}
        onClose={onClose}
        width={560}
        footer={
          <button type="button" className="btn btn-primary" onClick={onClose}>
            {t.common.done}
          </button>
        }
      >
        <p className="notice notice-warn">{t.apiKeys.issuedWarning}</p>
        <div className="secret" data-testid="issued-key">
          <code>{issued.key}</code>
          <button
            type="button"
            className="btn btn-small"
            onClick={() => {
              void navigator.clipboard?.writeText(issued.key).then(() => toast.success(t.common.copied));
            }}
          >
            {t.common.copy}
          </button>
        </div>
        {issued.callbackSecret ? <ShownSecret secret={issued.callbackSecret} /> : null}
      </Modal>
    );
  }
  const submit = () => issue.mutate({ name, callbackTemplate: callback.trim() || null });
  return (
    <FormModal title={t.apiKeys.issue} onClose={onClose} width={560} onSubmit={submit} pending={issue.isPending} submitLabel={t.apiKeys.issue}>
      <label className="field">
        <span>{t.apiKeys.name}</span>
        <input name="name" required value={name} placeholder={t.apiKeys.namePlaceholder} onChange={(e) => setName(e.target.value)} />
      </label>
      <label className="field">
        <span>{t.apiKeys.callback}</span>
        <input name="callbackTemplate" value={callback} placeholder="https://example.com/taxi?uuid=%uuid%&status=%status_code%" onChange={(e) => setCallback(e.target.value)} />
        <span className="hint">{t.apiKeys.callbackHint}</span>
      </label>
      {error ? (
        <div className="notice notice-error" role="alert">
          {error}
        </div>
      ) : null}
      <button type="submit" hidden />
    </FormModal>
  );
}

/** A callback signing secret, shown once with a copy button. */
function ShownSecret({ secret }: { secret: string }) {
  const { t } = useI18n();
  return (
    <>
      <p className="notice notice-warn">{t.apiKeys.callbackSecretWarning}</p>
      <div className="secret" data-testid="callback-secret">
        <code>{secret}</code>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => {
            void navigator.clipboard?.writeText(secret).then(() => toast.success(t.common.copied));
          }}
        >
          {t.common.copy}
        </button>
      </div>
    </>
  );
}

function CallbackDialog({ apiKey, onClose }: { apiKey: { id: number; name: string; callbackTemplate: string | null }; onClose: () => void }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(apiKey.callbackTemplate ?? "");
  const [rotate, setRotate] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation(
    trpc.admin.apiKeys.setCallback.mutationOptions({
      meta: { inlineError: true },
      onSuccess: (row) => {
        toast.success(t.apiKeys.callbackSaved);
        void queryClient.invalidateQueries({ queryKey: trpc.admin.apiKeys.list.queryKey() });
        // A new signing secret is shown once, here; otherwise the dialog is done.
        if (row.callbackSecret) setSecret(row.callbackSecret);
        else onClose();
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  const submit = () => save.mutate({ apiKeyId: apiKey.id, callbackTemplate: value.trim() || null, rotateSecret: rotate });
  if (secret) {
    return (
      <Modal
        title={`${t.apiKeys.callback}: ${apiKey.name}`}
        onClose={onClose}
        width={600}
        footer={
          <button type="button" className="btn btn-primary" onClick={onClose}>
            {t.common.done}
          </button>
        }
      >
        <ShownSecret secret={secret} />
      </Modal>
    );
  }
  return (
    <Modal
      title={`${t.apiKeys.callback}: ${apiKey.name}`}
      onClose={onClose}
      width={600}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t.common.cancel}
          </button>
          <button type="button" className="btn btn-primary" onClick={submit}>
            {t.common.save}
          </button>
        </>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label className="field">
          <span>{t.apiKeys.callback}</span>
          <input name="callbackTemplate" value={value} onChange={(e) => setValue(e.target.value)} />
          <span className="hint">{t.apiKeys.callbackHint}</span>
        </label>
        <label className="field field-inline">
          <input type="checkbox" name="rotateSecret" checked={rotate} onChange={(e) => setRotate(e.target.checked)} />
          <span>{t.apiKeys.rotateSecret}</span>
        </label>
        {error ? (
          <div className="notice notice-error" role="alert">
            {error}
          </div>
        ) : null}
      </form>
    </Modal>
  );
}

export function ApiKeysAdmin() {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.admin.apiKeys.list.queryOptions());
  const [issuing, setIssuing] = useState(false);
  const [editing, setEditing] = useState<{ id: number; name: string; callbackTemplate: string | null } | null>(null);
  const revoke = useMutation(
    trpc.admin.apiKeys.revoke.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.admin.apiKeys.list.queryKey() }),
    }),
  );
  return (
    <>
      <PageHeader title={t.apiKeys.title}>
        <button type="button" className="btn btn-primary" onClick={() => setIssuing(true)}>
          <Icon name="key" size={16} />
          {t.apiKeys.issue}
        </button>
      </PageHeader>
      {keys.error ? (
        <ErrorNotice error={keys.error} onRetry={() => keys.refetch()} />
      ) : null}
      <div className="table-wrap">
        <table className="table" data-testid="api-keys-table">
          <thead>
            <tr>
              <th>{t.apiKeys.name}</th>
              <th>{t.apiKeys.prefix}</th>
              <th>{t.apiKeys.callback}</th>
              <th>{t.apiKeys.created}</th>
              <th>{t.apiKeys.lastUsed}</th>
              <th className="num">{t.apiKeys.orders}</th>
              <th>{t.apiKeys.status}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {keys.data?.map((k) => (
              <tr key={k.id} data-key-name={k.name} className={k.revokedAt ? "row-disabled" : ""}>
                <td className="strong">{k.name}</td>
                <td className="mono">{k.prefix}…</td>
                <td className="mono small truncate" title={k.callbackTemplate ?? undefined}>
                  {k.callbackTemplate ?? <span className="muted">{t.apiKeys.noCallback}</span>}
                </td>
                <td className="muted">{fmt.dateTime(k.createdAt)}</td>
                <td className="muted">{k.lastUsedAt ? fmt.ago(k.lastUsedAt) : t.common.none}</td>
                <td className="num">{k._count.orders}</td>
                <td>
                  <span className={`badge ${k.revokedAt ? "badge-muted" : "badge-success"}`}>{k.revokedAt ? t.apiKeys.revoked : t.apiKeys.active}</span>
                </td>
                <td className="actions">
                  {!k.revokedAt ? (
                    <>
                      <button type="button" className="btn btn-small" onClick={() => setEditing(k)}>
                        {t.apiKeys.editCallback}
                      </button>
                      <button
                        type="button"
                        className="btn btn-small btn-ghost-danger"
                        onClick={() => {
                          if (window.confirm(t.apiKeys.confirmRevoke(k.name))) revoke.mutate({ apiKeyId: k.id });
                        }}
                      >
                        {t.apiKeys.revoke}
                      </button>
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {issuing ? <IssueDialog onClose={() => setIssuing(false)} /> : null}
      {editing ? <CallbackDialog apiKey={editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}
