"use client";
// Messages with the dispatch (GET/POST /messages; new ones from a dispatcher
// also arrive on the offer stream as `event: message`). A server without the
// messages calls (404) shows that they are not available.
import { useEffect, useRef, useState, type FormEvent } from "react";
import { DriverApiError, type DriverMessage } from "./api";
import { useDriverI18n } from "./i18n";

type Call = <T>(method: "GET" | "POST", path: string, input?: Record<string, unknown>) => Promise<T>;
type Messages = DriverMessage[] | "unavailable" | null;

export function MessagesScreen({ call, messages, setMessages, onRead }: { call: Call; messages: Messages; setMessages: (m: Messages | ((m: Messages) => Messages)) => void; onRead: () => void }) {
  const { t, time } = useDriverI18n();
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const end = useRef<HTMLDivElement>(null);

  useEffect(() => {
    call<{ messages: DriverMessage[] }>("GET", "messages")
      .then((r) => setMessages(r.messages))
      .catch((e: unknown) => {
        if (e instanceof DriverApiError && e.status === 404) setMessages("unavailable");
      });
  }, [call, setMessages]);

  const last = Array.isArray(messages) ? messages.at(-1) : undefined;
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: "end" });
    if (!last) return;
    onRead();
    if (!last.read) void call("POST", "messages/read", { up_to: last.id }).catch(() => undefined);
  }, [last, call, onRead]);

  const send = async (e: FormEvent) => {
    e.preventDefault();
    const body = text.trim();
    if (!body) return;
    setBusy(true);
    setError("");
    try {
      const r = await call<{ message: DriverMessage }>("POST", "messages", { text: body });
      setMessages((list) => (Array.isArray(list) ? [...list, r.message] : [r.message]));
      setText("");
    } catch (err) {
      setError(err instanceof DriverApiError && err.offline ? t.offline : err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  if (messages === "unavailable") return <p className="drv-card drv-muted">{t.messagesUnavailable}</p>;
  return (
    <section className="drv-messages" aria-label={t.messagesTitle} data-testid="messages">
      <h1 className="drv-h1">{t.messagesTitle}</h1>
      <div className="drv-thread" role="log">
        {messages === null ? <p className="drv-muted">{t.loading}</p> : null}
        {Array.isArray(messages) && messages.length === 0 ? <p className="drv-muted">{t.messagesEmpty}</p> : null}
        {Array.isArray(messages)
          ? messages.map((m) => (
              <div key={m.id} className={`drv-msg ${m.from === "DRIVER" ? "drv-msg-mine" : "drv-msg-theirs"}`}>
                <div className="drv-msg-who">
                  {m.from === "DRIVER" ? t.fromMe : t.fromDispatcher} · {time(m.at)}
                </div>
                <div>{m.text}</div>
              </div>
            ))
          : null}
        <div ref={end} />
      </div>
      {error ? (
        <p className="drv-alert" role="alert">
          {error}
        </p>
      ) : null}
      <form className="drv-compose" onSubmit={(e) => void send(e)}>
        <label htmlFor="drv-message" className="drv-sr">
          {t.messageLabel}
        </label>
        <textarea id="drv-message" className="drv-input" rows={2} maxLength={1000} value={text} onChange={(e) => setText(e.target.value)} placeholder={t.messageLabel} />
        <button type="submit" className="drv-btn drv-btn-primary" disabled={busy || !text.trim()}>
          {t.send}
        </button>
      </form>
    </section>
  );
}
