"use client";
// Small pieces every screen of the driver's app uses.
import type { ReactNode } from "react";
import { useDriverI18n } from "./i18n";

export function LanguageSwitch() {
  const { t, locale, setLocale } = useDriverI18n();
  return (
    <button type="button" className="drv-btn drv-btn-small" lang={locale === "ru" ? "en" : "ru"} aria-label={t.switchLanguage} onClick={() => setLocale(locale === "ru" ? "en" : "ru")}>
      {t.otherLanguage}
    </button>
  );
}

export function Card({ title, children, testId }: { title?: string; children: ReactNode; testId?: string }) {
  return (
    <section className="drv-card" data-testid={testId} aria-label={title}>
      {title ? <h2>{title}</h2> : null}
      {children}
    </section>
  );
}

export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="drv-field">
      <div className="drv-field-label">{label}</div>
      <div className="drv-field-value">{children}</div>
    </div>
  );
}

export function addressOf(a: { street: string; house: string; entrance?: string } | { line: string; street: string; house: string } | null): string {
  if (!a) return "";
  if ("line" in a && a.line) return a.line;
  const entrance = "entrance" in a && a.entrance ? `, ${a.entrance}` : "";
  return [a.street, a.house].filter(Boolean).join(", ") + entrance;
}
