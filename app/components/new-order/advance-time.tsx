"use client";
// The advance order's pickup time by keyboard (issue 34): a text field that
// takes "+30", "22:30", "завтра 7:00", quick buttons (+15, +30 min, 22:30,
// tomorrow 07:00), the resolved time shown on the city's clock, and the
// console's own message for a time in the past (never the browser's).
import { useId } from "react";
import { parseAdvanceTime } from "@/shared/orders/advance-time";
import { useI18n } from "../i18n";
import { useNow } from "../use-now";

const QUICK = ["+15", "+30", "22:30", "tomorrow"] as const;

export function AdvanceTimeField({
  value,
  onChange,
  timeZone,
  inputRef,
  showError,
}: {
  value: string;
  onChange: (text: string) => void;
  timeZone: string;
  inputRef?: React.Ref<HTMLInputElement>;
  /** Show an unreadable or empty entry as an error (after a submit); a past time shows at once. */
  showError: boolean;
}) {
  const { t, locale } = useI18n();
  const a = t.shift.advance;
  const now = useNow(15_000);
  const hintId = useId();
  const parsed = parseAdvanceTime(value, now, timeZone);
  const message = "at" in parsed ? null : parsed.error === "past" ? a.past : showError ? (parsed.error === "empty" ? a.required : a.unreadable) : null;
  const shown = "at" in parsed
    ? new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "ru-RU", { timeZone, weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }).format(parsed.at)
    : null;
  const tomorrow = locale === "en" ? "tomorrow 07:00" : "завтра 07:00";
  return (
    <div className="advance-time" data-testid="advance-time">
      <input
        ref={inputRef}
        name="preOrderTime"
        value={value}
        autoComplete="off"
        placeholder={a.placeholder}
        aria-label={a.label}
        aria-invalid={message !== null}
        aria-describedby={hintId}
        onChange={(e) => onChange(e.target.value)}
      />
      <div className="advance-quick" role="group" aria-label={a.label}>
        {QUICK.map((q) => (
          <button key={q} type="button" className="btn btn-small" onClick={() => onChange(q === "tomorrow" ? tomorrow : q)}>
            {q === "tomorrow" ? a.tomorrow7 : q.startsWith("+") ? a.plus(Number(q.slice(1))) : q}
          </button>
        ))}
      </div>
      <div id={hintId} className={message ? "field-error" : "muted small"} role={message ? "alert" : undefined} data-testid="advance-when">
        {message ?? (shown ? `${a.at(shown)} · ${a.hint(timeZone)}` : a.hint(timeZone))}
      </div>
    </div>
  );
}
