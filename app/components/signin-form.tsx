"use client";
// Sign-in: email and password. Errors are spelled out; the language switch
// is here too, before anyone has signed in.
import { useState } from "react";
import { signIn } from "next-auth/react";
import { sameOriginTarget } from "@/shared/safe-redirect";
import { I18nProvider, useI18n, type Locale } from "./i18n";
import { LocaleSwitch } from "./shell";

function Form({ notice }: { notice: "expired" | "signedOut" | null }) {
  const { t } = useI18n();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await signIn("credentials", { email, password, redirect: false });
      if (!result || result.error || !result.ok) {
        setError(t.signIn.failed);
        setBusy(false);
        return;
      }
      // Only a target on this origin, resolved as the browser would (shared/safe-redirect.ts).
      window.location.href = sameOriginTarget(new URLSearchParams(window.location.search).get("next"), window.location.origin);
    } catch {
      setError(t.errors.network);
      setBusy(false);
    }
  }

  return (
    <div className="signin">
      <div className="signin-top">
        <LocaleSwitch />
      </div>
      <form className="signin-card" onSubmit={(e) => void submit(e)} aria-label={t.signIn.title}>
        <div className="signin-brand">
          <span className="brand-mark brand-mark-large">T</span>
          <div>
            <div className="signin-app">
              {t.appName} · {t.appSubtitle}
            </div>
          </div>
        </div>
        <h1>{t.signIn.title}</h1>
        <p className="muted">{t.signIn.subtitle}</p>
        {notice && !error ? (
          <div className="notice notice-info" role="status">
            {notice === "expired" ? t.signIn.expired : t.signIn.signedOut}
          </div>
        ) : null}
        {error ? (
          <div className="notice notice-error" role="alert">
            {error}
          </div>
        ) : null}
        <label className="field">
          <span>{t.signIn.email}</span>
          <input name="email" type="email" autoComplete="username" required autoFocus value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label className="field">
          <span>{t.signIn.password}</span>
          <input name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? t.signIn.submitting : t.signIn.submit}
        </button>
      </form>
    </div>
  );
}

export function SignInForm({ locale, notice }: { locale: Locale; notice: "expired" | "signedOut" | null }) {
  return (
    <I18nProvider locale={locale} timeZone="Europe/Moscow">
      <Form notice={notice} />
    </I18nProvider>
  );
}
