"use client";
// The rate's kind in the rate editor: a fixed price (the estimate's) or the
// GPS taximeter (boarding, per km after the included ones, per minute, free
// waiting minutes then per minute, the minimum: the editor's other fields).
import { useI18n } from "../i18n";

export function RateKindField({ value, onChange }: { value: "FIXED" | "METERED"; onChange: (kind: "FIXED" | "METERED") => void }) {
  const { t } = useI18n();
  return (
    <fieldset className="field" data-testid="rate-kind">
      <legend>{t.meter.kind}</legend>
      {(["FIXED", "METERED"] as const).map((kind) => (
        <label key={kind} className="check">
          <input type="radio" name="kind" value={kind} checked={value === kind} onChange={() => onChange(kind)} />
          <span>{t.meter.kinds[kind]}</span>
        </label>
      ))}
    </fieldset>
  );
}
