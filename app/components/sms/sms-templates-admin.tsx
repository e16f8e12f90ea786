"use client";
// Reference data: the passengers' SMS of a service — its settings (the
// passengers' language, the sender name, the patience after which dispatch
// gives up) and the text of each event in each language, with the count of
// parts and the encoding as it is typed. Saves are audited (sms.saveTemplate,
// sms.saveSettings); a text can go back to the built-in one.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import { SMS_LANGUAGES, SMS_PLACEHOLDERS, templateProblem, type SmsEvent, type SmsLanguage } from "@/shared/sms/templates";
import { shapeOf } from "@/shared/sms/segments";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { ErrorNotice, PageHeader } from "../ui";
import { toast } from "../toast";
import { errorInfo } from "../errors";
import { ServiceSelect, useFirstService } from "../reference/common";
import "./sms.css";

type Editor = inferRouterOutputs<AppRouter>["sms"]["templates"];
type Row = Editor["templates"][number];

function TemplateEditor({ serviceId, row }: { serviceId: number; row: Row }) {
  const { t } = useI18n();
  const s = t.sms;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [text, setText] = useState(row.text);
  const [error, setError] = useState<string | null>(null);
  const title = s.events[row.event];
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.sms.templates.queryKey({ serviceId }) });
  const save = useMutation(
    trpc.sms.saveTemplate.mutationOptions({
      meta: { inlineError: true },
      onSuccess: (_data, input) => {
        toast.success(input.text === null ? s.resetDone(title) : s.saved(title));
        setError(null);
        refresh();
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  const problem = templateProblem(text);
  const problemText = problem ? (problem.kind === "unknown" ? s.problems.unknown(problem.names?.join(", ") ?? "") : s.problems[problem.kind]) : null;
  const shape = shapeOf(text);
  const id = `sms-${row.language}-${row.event}`;
  return (
    <div className="sms-template" data-event={row.event} data-language={row.language}>
      <div className="row gap">
        <label className="strong" htmlFor={id}>
          {title}
        </label>
        <span className={`badge ${row.own ? "badge-assigned" : "badge-muted"}`}>{row.own ? s.own : s.builtIn}</span>
      </div>
      <textarea id={id} value={text} rows={3} aria-invalid={problem ? true : undefined} aria-describedby={`${id}-shape`} onChange={(e) => setText(e.target.value)} />
      <div className="row gap small">
        <span id={`${id}-shape`} className={problemText ? "field-error" : "muted"} role={problemText ? "alert" : undefined}>
          {problemText ?? s.shape(shape.parts, shape.encoding, shape.length)}
        </span>
        <span className="spacer" />
        {row.own ? (
          <button type="button" className="btn btn-small" disabled={save.isPending} onClick={() => save.mutate({ serviceId, language: row.language, event: row.event, text: null })}>
            {s.reset}
          </button>
        ) : null}
        <button
          type="button"
          className="btn btn-small btn-primary"
          disabled={save.isPending || problem !== null || text === row.text}
          onClick={() => save.mutate({ serviceId, language: row.language, event: row.event, text })}
        >
          {s.save}
        </button>
      </div>
      {error ? (
        <div className="field-error" role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}

function ServiceSettings({ serviceId, settings }: { serviceId: number; settings: Editor["settings"] }) {
  const { t } = useI18n();
  const s = t.sms;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [language, setLanguage] = useState<SmsLanguage>(settings.language);
  const [sender, setSender] = useState(settings.sender);
  const [patience, setPatience] = useState(String(settings.patienceMinutes));
  const [error, setError] = useState<string | null>(null);
  const save = useMutation(
    trpc.sms.saveSettings.mutationOptions({
      meta: { inlineError: true },
      onSuccess: () => {
        toast.success(s.settingsSaved);
        setError(null);
        void queryClient.invalidateQueries({ queryKey: trpc.sms.templates.queryKey({ serviceId }) });
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  const minutes = /^\d{1,4}$/.test(patience.trim()) ? Number(patience.trim()) : null;
  return (
    <section className="card" aria-label={s.settings} data-testid="sms-settings">
      <h3>{s.settings}</h3>
      <div className="sms-settings">
        <label className="field">
          <span>{s.language}</span>
          <select value={language} onChange={(e) => setLanguage(e.target.value as SmsLanguage)}>
            {SMS_LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {s.languages[l]}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{s.sender}</span>
          <input value={sender} maxLength={15} autoComplete="off" title={s.senderHint} onChange={(e) => setSender(e.target.value)} />
        </label>
        <label className="field">
          <span>{s.patience}</span>
          <input className="num" inputMode="numeric" value={patience} title={s.patienceHint} aria-invalid={minutes === null || undefined} onChange={(e) => setPatience(e.target.value)} />
        </label>
        <button
          type="button"
          className="btn btn-primary"
          disabled={save.isPending || minutes === null}
          onClick={() => save.mutate({ serviceId, language, sender, patienceMinutes: minutes ?? 0 })}
        >
          {s.saveSettings}
        </button>
      </div>
      <p className="muted small">
        {s.senderHint}. {s.patienceHint}.
      </p>
      {error ? (
        <div className="field-error" role="alert">
          {error}
        </div>
      ) : null}
    </section>
  );
}

export function SmsTemplatesAdmin() {
  const { t } = useI18n();
  const s = t.sms;
  const trpc = useTRPC();
  const [serviceId, setServiceId] = useState<number | "">("");
  useFirstService(serviceId, setServiceId);
  const editor = useQuery({ ...trpc.sms.templates.queryOptions({ serviceId: serviceId === "" ? 1 : serviceId }), enabled: serviceId !== "" });
  const data = serviceId !== "" ? editor.data : undefined;
  return (
    <>
      <PageHeader title={s.title} sub={<span className="muted small">{s.sub}</span>}>
        <ServiceSelect value={serviceId} onChange={setServiceId} />
      </PageHeader>
      {editor.error ? <ErrorNotice error={editor.error} onRetry={() => editor.refetch()} /> : null}
      {data && serviceId !== "" ? (
        <div className="sms-templates" data-testid="sms-templates">
          <ServiceSettings key={`${serviceId}:${data.settings.language}:${data.settings.sender}:${data.settings.patienceMinutes}`} serviceId={serviceId} settings={data.settings} />
          <p className="sms-placeholders small">
            <span className="muted">{s.placeholders}: </span>
            {Object.keys(SMS_PLACEHOLDERS).map((name) => (
              <code key={name}>%{name}%</code>
            ))}
          </p>
          {SMS_LANGUAGES.map((language) => (
            <section key={language} className="card" aria-label={s.languages[language]}>
              <h3>{s.languages[language]}</h3>
              <div className="sms-templates">
                {data.templates
                  .filter((row) => row.language === language)
                  .map((row) => (
                    <TemplateEditor key={`${serviceId}:${row.language}:${row.event}:${row.own}:${row.text}`} serviceId={serviceId} row={row as Row & { event: SmsEvent }} />
                  ))}
              </div>
            </section>
          ))}
        </div>
      ) : null}
    </>
  );
}
