// Every tracking token that is not a working link: one page, both languages
// (the token told us nothing, so neither the order's nor the passenger's).
import { trackingStrings } from "@/shared/i18n/tracking";
import "../tracking.css";

export default function TrackingNotFound() {
  return (
    <main className="trk trk-missing">
      {(["ru", "en"] as const).map((locale) => (
        <section key={locale} lang={locale} className="trk-card">
          <h1>{trackingStrings[locale].notFoundTitle}</h1>
          <p>{trackingStrings[locale].notFoundText}</p>
        </section>
      ))}
    </main>
  );
}
