"use client";
// /driver/activate#key=<driver app key>: the key comes in the fragment (never
// sent to a server, so never in a log), is checked with GET /me before
// anything is shown, and only then kept on the phone. A key that does not
// work (unknown, replaced, revoked) leaves the driver here with the reason.
import { useEffect, useState, type FormEvent } from "react";
import { driverCall, DriverApiError, type DriverProfile } from "./api";
import { storeKey, takeNote, type ActivationNote } from "./device";
import { useDriverI18n } from "./i18n";
import { LanguageSwitch } from "./parts";

type Check = { state: "idle" } | { state: "checking" } | { state: "failed"; why: "badKey" | "offline" } | { state: "note"; note: ActivationNote };

export function Activate() {
  const { t } = useDriverI18n();
  const [check, setCheck] = useState<Check>({ state: "idle" });
  const [typed, setTyped] = useState("");

  const activate = async (key: string) => {
    setCheck({ state: "checking" });
    try {
      await driverCall<{ driver: DriverProfile }>(key, "GET", "me");
      storeKey(key);
      window.location.replace("/driver");
    } catch (e) {
      setCheck({ state: "failed", why: e instanceof DriverApiError && e.offline ? "offline" : "badKey" });
    }
  };

  useEffect(() => {
    // The key lives in the address, outside React: read on arrival and when a link is opened in this
    // very tab again (only the fragment changes then, and the page is not loaded anew).
    const read = (arriving: boolean) => {
      const fragment = new URLSearchParams(window.location.hash.slice(1));
      const key = fragment.get("key")?.trim();
      // The key leaves the address bar (and the history) at once.
      if (window.location.hash) window.history.replaceState(null, "", window.location.pathname);
      const note = key || !arriving ? null : takeNote();
      if (key) void activate(key);
      else if (note) setCheck({ state: "note", note });
    };
    read(true);
    const onHash = () => read(false);
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (typed.trim()) void activate(typed.trim());
  };

  return (
    <main className="drv-activate">
      <div className="drv-activate-top">
        <span className="drv-mark" aria-hidden="true">
          T
        </span>
        <LanguageSwitch />
      </div>
      <h1>{t.activateTitle}</h1>
      {check.state === "checking" ? (
        <p className="drv-status" role="status">
          {t.activateChecking}
        </p>
      ) : null}
      {check.state === "failed" ? (
        <p className="drv-alert" role="alert">
          {check.why === "offline" ? t.activateNoConnection : t.activateBadKey}
        </p>
      ) : null}
      {check.state === "note" ? (
        <p className={check.note === "badKey" ? "drv-alert" : "drv-status"} role={check.note === "badKey" ? "alert" : "status"}>
          {check.note === "badKey" ? t.activateBadKey : t.activateSignedOut}
        </p>
      ) : null}
      <p className="drv-lead">{t.activateIntro}</p>
      <form onSubmit={submit} className="drv-form">
        <label htmlFor="drv-key">{t.activateKeyLabel}</label>
        <input id="drv-key" className="drv-input" autoComplete="off" autoCapitalize="off" spellCheck={false} value={typed} onChange={(e) => setTyped(e.target.value)} />
        <button type="submit" className="drv-btn drv-btn-primary" disabled={check.state === "checking" || !typed.trim()}>
          {t.activateSubmit}
        </button>
      </form>
    </main>
  );
}
