"use client";
// Console users: create with roles, change roles, disable or enable, set a
// new password. Every action is audited on the server.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { UserRole } from "@/shared/roles";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { Icon } from "../icons";
import { ErrorNotice, FormModal, Modal, PageHeader } from "../ui";
import { toast } from "../toast";
import { errorInfo } from "../errors";

const ROLES = Object.values(UserRole);

function RolePicker({ value, onChange }: { value: UserRole[]; onChange: (roles: UserRole[]) => void }) {
  const { t } = useI18n();
  return (
    <div className="chips" role="group" aria-label={t.users.roles}>
      {ROLES.map((r) => {
        const on = value.includes(r);
        return (
          <label key={r} className={`chip${on ? " on" : ""}`}>
            <input type="checkbox" name={`role-${r}`} checked={on} onChange={(e) => onChange(e.target.checked ? [...value, r] : value.filter((x) => x !== r))} />
            {t.roles[r]}
          </label>
        );
      })}
    </div>
  );
}

function CreateUserDialog({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [roles, setRoles] = useState<UserRole[]>(["DISPATCHER"]);
  const [error, setError] = useState<string | null>(null);
  const create = useMutation(
    trpc.admin.users.create.mutationOptions({
      meta: { inlineError: true },
      onSuccess: (user) => {
        toast.success(t.users.created(user.email));
        void queryClient.invalidateQueries({ queryKey: trpc.admin.users.list.queryKey() });
        onClose();
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  const submit = () => create.mutate({ email, name, password, roles });
  return (
    <FormModal title={t.users.create} onClose={onClose} width={520} onSubmit={submit} pending={create.isPending} submitLabel={t.common.create}>
      <label className="field">
        <span>{t.users.email}</span>
        <input name="email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label className="field">
        <span>{t.users.name}</span>
        <input name="name" required value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label className="field">
        <span>{t.users.password}</span>
        <input name="password" type="password" autoComplete="new-password" required minLength={8} value={password} onChange={(e) => setPassword(e.target.value)} />
        <span className="hint">{t.users.passwordHint}</span>
      </label>
      <div className="field">
        <span>{t.users.roles}</span>
        <RolePicker value={roles} onChange={setRoles} />
      </div>
      {error ? (
        <div className="notice notice-error" role="alert">
          {error}
        </div>
      ) : null}
      <button type="submit" hidden />
    </FormModal>
  );
}

interface UserRow {
  id: number;
  email: string;
  name: string;
  roles: UserRole[];
  extension: string | null;
}

function EditUserDialog({ user, onClose }: { user: UserRow; onClose: () => void }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState(user.name);
  const [roles, setRoles] = useState<UserRole[]>(user.roles);
  const [extension, setExtension] = useState(user.extension ?? "");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const done = () => void queryClient.invalidateQueries({ queryKey: trpc.admin.users.list.queryKey() });
  const update = useMutation(trpc.admin.users.update.mutationOptions({ meta: { inlineError: true }, onError: (e) => setError(errorInfo(e, t).message) }));
  const reset = useMutation(trpc.admin.users.resetPassword.mutationOptions({ meta: { inlineError: true }, onError: (e) => setError(errorInfo(e, t).message) }));
  const submit = async () => {
    setError(null);
    try {
      await update.mutateAsync({ userId: user.id, name, roles, extension: extension.trim() || null });
      if (password) {
        await reset.mutateAsync({ userId: user.id, password });
        toast.success(t.users.passwordReset);
      } else toast.success(t.users.updated);
      done();
      onClose();
    } catch {
      // shown in the dialog
    }
  };
  return (
    <Modal
      title={user.email}
      onClose={onClose}
      width={520}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t.common.cancel}
          </button>
          <button type="button" className="btn btn-primary" onClick={() => void submit()}>
            {t.common.save}
          </button>
        </>
      }
    >
      <label className="field">
        <span>{t.users.name}</span>
        <input name="name" value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <div className="field">
        <span>{t.users.roles}</span>
        <RolePicker value={roles} onChange={setRoles} />
      </div>
      <label className="field">
        <span>{t.phone.extension}</span>
        <input name="extension" inputMode="numeric" value={extension} onChange={(e) => setExtension(e.target.value)} aria-describedby="extension-hint" />
        <span id="extension-hint" className="muted small">
          {t.phone.extensionHint}
        </span>
      </label>
      <label className="field">
        <span>{t.users.resetPassword}</span>
        <input name="password" type="password" autoComplete="new-password" minLength={8} value={password} onChange={(e) => setPassword(e.target.value)} />
        <span className="hint">{t.users.passwordHint}</span>
      </label>
      {error ? (
        <div className="notice notice-error" role="alert">
          {error}
        </div>
      ) : null}
    </Modal>
  );
}

export function UsersAdmin() {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const users = useQuery(trpc.admin.users.list.queryOptions());
  const me = useQuery(trpc.session.me.queryOptions());
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<UserRow | null>(null);
  const setDisabled = useMutation(
    trpc.admin.users.setDisabled.mutationOptions({
      onSuccess: () => {
        toast.success(t.users.updated);
        void queryClient.invalidateQueries({ queryKey: trpc.admin.users.list.queryKey() });
      },
    }),
  );
  return (
    <>
      <PageHeader title={t.users.title}>
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          <Icon name="plus" size={16} />
          {t.users.create}
        </button>
      </PageHeader>
      {users.error ? (
        <ErrorNotice error={users.error} onRetry={() => users.refetch()} />
      ) : null}
      <div className="table-wrap">
        <table className="table" data-testid="users-table">
          <thead>
            <tr>
              <th>{t.users.name}</th>
              <th>{t.users.email}</th>
              <th>{t.users.roles}</th>
              <th>{t.users.status}</th>
              <th>{t.users.lastSignIn}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {users.data?.map((u) => (
              <tr key={u.id} data-email={u.email} className={u.disabled ? "row-disabled" : ""}>
                <td className="strong">
                  {u.name}
                  {me.data?.id === u.id ? <span className="pill">{t.users.you}</span> : null}
                </td>
                <td className="mono">
                  {u.email}
                  {u.extension ? <span className="muted"> · {t.phone.extension}: {u.extension}</span> : null}
                </td>
                <td>
                  <div className="role-list">
                    {u.roles.map((r) => (
                      <span key={r} className={`badge badge-role-${r.toLowerCase()}`}>
                        {t.roles[r]}
                      </span>
                    ))}
                  </div>
                </td>
                <td>
                  <span className={`badge ${u.disabled ? "badge-muted" : "badge-success"}`}>{u.disabled ? t.users.disabled : t.users.active}</span>
                </td>
                <td className="muted">{u.lastSignInAt ? fmt.dateTime(u.lastSignInAt) : t.common.none}</td>
                <td className="actions">
                  <button type="button" className="btn btn-small" onClick={() => setEditing(u)}>
                    {t.users.editRoles}
                  </button>
                  {me.data?.id !== u.id ? (
                    <button
                      type="button"
                      className={`btn btn-small${u.disabled ? "" : " btn-ghost-danger"}`}
                      onClick={() => {
                        if (!u.disabled && !window.confirm(t.users.confirmDisable(u.email))) return;
                        setDisabled.mutate({ userId: u.id, disabled: !u.disabled });
                      }}
                    >
                      {u.disabled ? t.users.enable : t.users.disable}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {creating ? <CreateUserDialog onClose={() => setCreating(false)} /> : null}
      {editing ? <EditUserDialog user={editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}
