"use client";
// The driver's app (/driver): one page holding the shift, the offer stream,
// the phone's positions and the offline queue for as long as it is open,
// with four screens (shift, order, messages, more) switched in place so that
// none of them interrupts the stream or the GPS. Every call is the driver app
// interface's (api.ts); nothing here reaches the server any other way.
import dynamic from "next/dynamic";
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { driverCall, DriverApiError, type DriverMessage, type DriverOrder, type DriverProfile, type PositionFix, type QueuePlace } from "./api";
import { forgetKey, storedKey } from "./device";
import { useDriverI18n } from "./i18n";
import { openOfferStream } from "./offer-stream";
import { clearQueue, enqueue, queued, replay, type QueuedAction, type ReplayConflict } from "./offline-queue";
import { ReplayBackoff } from "./replay-backoff";
import { usePositions } from "./use-positions";
import { ring, unlockSound } from "./alert";
import { OfferSheet, type OfferShown } from "./offer-sheet";
import { ShiftScreen } from "./shift-screen";
import { HintCard } from "./hint-card";
import { MessagesScreen } from "./messages-screen";
import { MoreScreen } from "./more-screen";
import { activeOrderOf, confirmationOf, type OrderMove } from "./order-moves";
import { LanguageSwitch } from "./parts";

const TripScreen = dynamic(() => import("./trip-screen").then((m) => m.TripScreen), { ssr: false });

type Tab = "shift" | "trip" | "messages" | "more";
const TABS: Tab[] = ["shift", "trip", "messages", "more"];

const noSubscribe = () => () => {};
function subscribeOnline(listener: () => void) {
  window.addEventListener("online", listener);
  window.addEventListener("offline", listener);
  return () => {
    window.removeEventListener("online", listener);
    window.removeEventListener("offline", listener);
  };
}

export interface Notice {
  kind: "info" | "error";
  text: string;
}

export function DriverApp({ tileUrl }: { tileUrl: string }) {
  // undefined while rendered on the server (no storage there), null: no key on this phone.
  const key = useSyncExternalStore(noSubscribe, storedKey, () => undefined);
  const browserOnline = useSyncExternalStore(subscribeOnline, () => navigator.onLine, () => true);
  const { t } = useDriverI18n();
  const [tab, setTab] = useState<Tab>("shift");
  const [me, setMe] = useState<DriverProfile | null>(null);
  const [orders, setOrders] = useState<DriverOrder[]>([]);
  const [offer, setOffer] = useState<OfferShown | null>(null);
  const [queuePlace, setQueuePlace] = useState<QueuePlace | null>(null);
  const [reachable, setReachable] = useState(true);
  const [pending, setPending] = useState(0);
  const [conflicts, setConflicts] = useState<ReplayConflict[]>([]);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [messages, setMessages] = useState<DriverMessage[] | "unavailable" | null>(null);
  const [unread, setUnread] = useState(0);
  const pendingRef = useRef(0);
  const queuedOrders = useRef(new Set<string>());
  const online = browserOnline && reachable;

  useEffect(() => {
    if (key === null) window.location.replace("/driver/activate");
  }, [key]);

  const signOutBadKey = useCallback(() => {
    forgetKey("badKey");
    void clearQueue();
    window.location.replace("/driver/activate");
  }, []);

  /** A call of the interface; a refused key ends the session, a lost connection marks the app offline. */
  const call = useCallback(
    async <T,>(method: "GET" | "POST", path: string, input?: Record<string, unknown>): Promise<T> => {
      if (!key) throw new DriverApiError(401, "UNAUTHORIZED", "no key");
      try {
        const reply = await driverCall<T>(key, method, path, input);
        setReachable(true);
        return reply;
      } catch (e) {
        if (e instanceof DriverApiError && e.unauthorized) signOutBadKey();
        if (e instanceof DriverApiError && e.offline) setReachable(false);
        throw e;
      }
    },
    [key, signOutBadKey],
  );

  const refreshPending = useCallback(async () => {
    const q = await queued();
    pendingRef.current = q.length;
    queuedOrders.current = new Set(q.flatMap((a) => (a.kind === "position" ? [] : [a.uuid])));
    setPending(q.length);
  }, []);

  // Refreshes overlap (the 15 s timer, the offer stream, an answer to an offer): only the latest one started
  // may set what the screens show, or a slower earlier reply (read before an acceptance) hides the new order.
  const refreshes = useRef(0);
  const refresh = useCallback(async () => {
    const seq = ++refreshes.current;
    try {
      const [profile, mine] = await Promise.all([call<{ driver: DriverProfile }>("GET", "me"), call<{ orders: DriverOrder[] }>("GET", "orders")]);
      if (seq !== refreshes.current) return;
      setMe(profile.driver);
      // Moves still queued on the phone are newer than the server's view of those orders.
      setOrders((local) => mine.orders.map((o) => (queuedOrders.current.has(o.uuid) ? local.find((l) => l.uuid === o.uuid) ?? o : o)).concat(local.filter((l) => queuedOrders.current.has(l.uuid) && !mine.orders.some((o) => o.uuid === l.uuid))));
      if (profile.driver.on_shift) {
        const q = await call<{ queue: QueuePlace | null }>("GET", "queue");
        if (seq === refreshes.current) setQueuePlace(q.queue);
      } else setQueuePlace(null);
    } catch {
      // Offline or refused: the screens keep what they showed.
    }
  }, [call]);

  // First load, then every 15 s (the stream pushes offers; this catches the rest: a dispatcher's changes, the balance).
  useEffect(() => {
    if (!key) return;
    void refreshPending().then(refresh);
    const timer = setInterval(() => void refresh(), 15_000);
    return () => clearInterval(timer);
  }, [key, refresh, refreshPending]);

  // The notice's words in the language of the moment: read by the stream's handler, so that switching the
  // language does not close and reopen the stream (a message written during a reopening was not pushed).
  const newMessageLabel = useRef(t.newMessage);
  useEffect(() => {
    newMessageLabel.current = t.newMessage;
  }, [t.newMessage]);

  // The stream's message cursor, kept across its connections (offer-stream.ts).
  const messageCursor = useRef<number | undefined>(undefined);

  // The offer stream, for as long as the app is open with a key.
  useEffect(() => {
    if (!key) return;
    return openOfferStream(key, {
      onOffer: (o) => {
        setOffer((shown) => {
          if (!o) return null;
          if (shown?.offer.offer_id === o.offer_id) return shown;
          ring();
          return { offer: o, deadlineAt: Date.now() + o.seconds_left * 1000 };
        });
        void refresh();
      },
      onMessage: (m) => {
        setMessages((list) => (Array.isArray(list) ? (list.some((x) => x.id === m.id) ? list : [...list, m]) : list));
        if (m.from === "DISPATCHER") {
          setUnread((n) => n + 1);
          ring();
          setNotice({ kind: "info", text: `${newMessageLabel.current}: ${m.text}` });
        }
      },
      onUnauthorized: signOutBadKey,
      onConnected: (c) => {
        if (c) setReachable(true);
      },
    }, messageCursor);
  }, [key, refresh, signOutBadKey]);

  // Replaying the queue when the connection is back, and while something waits every 5 s, less often while the server cannot take it (replay-backoff.ts).
  const replaying = useRef(false);
  const describe = useCallback((a: QueuedAction) => (a.kind === "complete" ? t.move.complete! : a.kind === "status" ? t.move[a.status] ?? a.status : "GPS"), [t]);
  const backoff = useRef(new ReplayBackoff());
  const flush = useCallback(async () => {
    if (!key || replaying.current || pendingRef.current === 0 || !navigator.onLine || !backoff.current.ready(Date.now())) return;
    replaying.current = true;
    try {
      const outcome = await replay(key, describe);
      if (outcome.interrupted) backoff.current.failed(Date.now(), outcome.retryAfterSeconds);
      else backoff.current.reset();
      if (!outcome.interrupted) setReachable(true);
      if (outcome.conflicts.length) {
        setConflicts((c) => [...c, ...outcome.conflicts]);
        setNotice(null); // "saved, will be sent" is no longer true of it
      }
      else if (outcome.sent && !outcome.interrupted) setNotice({ kind: "info", text: t.replayed });
    } catch (e) {
      if (e instanceof DriverApiError && e.unauthorized) signOutBadKey();
    } finally {
      replaying.current = false;
      await refreshPending();
      await refresh();
    }
  }, [key, describe, refresh, refreshPending, signOutBadKey, t.replayed]);

  useEffect(() => {
    const onOnline = () => {
      backoff.current.reset();
      void flush();
    };
    window.addEventListener("online", onOnline);
    const timer = setInterval(() => void flush(), 5_000);
    return () => {
      window.removeEventListener("online", onOnline);
      clearInterval(timer);
    };
  }, [flush]);

  // Positions: straight to the server while online and nothing waits, else into the queue (in order).
  const sendFix = useCallback(
    (fix: PositionFix) => {
      void (async () => {
        if (pendingRef.current === 0 && navigator.onLine) {
          try {
            await call("POST", "position", { ...fix });
            return;
          } catch (e) {
            if (!(e instanceof DriverApiError) || !e.offline) return;
          }
        }
        await enqueue({ kind: "position", fix });
        await refreshPending();
      })();
    },
    [call, refreshPending],
  );
  const gps = usePositions(Boolean(me?.on_shift), sendFix);

  // The first touch allows the offer's sound.
  useEffect(() => {
    const unlock = () => unlockSound();
    window.addEventListener("pointerdown", unlock, { once: true });
    return () => window.removeEventListener("pointerdown", unlock);
  }, []);

  // Registering the service worker (public/driver-sw.js) that caches the app's code for use without connection.
  useEffect(() => {
    if ("serviceWorker" in navigator) void navigator.serviceWorker.register("/driver-sw.js", { scope: "/driver" }).catch(() => undefined);
  }, []);

  /** A status move or a completion: sent now, or queued (and shown as done) when there is no connection. */
  const moveOrder = useCallback(
    async (order: DriverOrder, move: OrderMove): Promise<void> => {
      const optimistic = (o: DriverOrder): DriverOrder => ({ ...o, state: move === "complete" ? "DONE_SUCCESSFUL" : move });
      const queueIt = async () => {
        const chained = queuedOrders.current.has(order.uuid);
        if (move === "complete") await enqueue({ kind: "complete", uuid: order.uuid, orderId: order.id, at: new Date().toISOString() });
        else await enqueue({ kind: "status", uuid: order.uuid, orderId: order.id, status: move, version: order.version, chained, at: new Date().toISOString() });
        queuedOrders.current.add(order.uuid);
        setOrders((list) => list.map((o) => (o.uuid === order.uuid ? optimistic(o) : o)));
        setNotice({ kind: "info", text: move === "complete" ? t.completedOffline : t.savedOffline });
        await refreshPending();
      };
      if (pendingRef.current > 0 || !navigator.onLine) return queueIt();
      try {
        if (move === "complete") {
          const done = await call<{ order: DriverOrder; fare: number }>("POST", "orders/complete", { uuid: order.uuid });
          setOrders((list) => list.map((o) => (o.uuid === order.uuid ? done.order : o)));
          setNotice({ kind: "info", text: t.completed(new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 }).format(done.fare) + " ₽") });
        } else {
          const moved = await call<{ order: DriverOrder }>("POST", "orders/status", { uuid: order.uuid, status: move, version: order.version });
          setOrders((list) => list.map((o) => (o.uuid === order.uuid ? moved.order : o)));
        }
        void refresh();
      } catch (e) {
        if (e instanceof DriverApiError && e.offline) return queueIt();
        if (e instanceof DriverApiError && !e.unauthorized) {
          setConflicts((c) => [...c, { orderId: order.id, what: move === "complete" ? t.move.complete! : t.move[move] ?? move, code: e.code, message: e.message }]);
          void refresh();
        }
      }
    },
    [call, refresh, refreshPending, t],
  );

  const answerOffer = useCallback(
    async (shown: OfferShown, answer: { accept: true } | { accept: false; reason: string }) => {
      try {
        if (answer.accept) {
          if (shown.offer.order.state === "PREORDER_CONFIRM_REQUESTED") await call("POST", "orders/status", { uuid: shown.offer.order.uuid, status: "PREORDER_CONFIRM_SUCCESSFUL", version: shown.offer.order.version });
          else await call("POST", "offer/accept", { uuid: shown.offer.order.uuid });
          setNotice({ kind: "info", text: t.accepted });
          if (shown.offer.kind === "LIVE") setTab("trip");
        } else {
          await call("POST", "offer/refuse", { uuid: shown.offer.order.uuid, reason: answer.reason });
          setNotice({ kind: "info", text: t.refused });
        }
      } catch (e) {
        setNotice({ kind: "error", text: e instanceof DriverApiError && e.status === 409 ? t.offerGone : e instanceof Error ? e.message : String(e) });
      }
      setOffer(null);
      void refresh();
    },
    [call, refresh, t],
  );

  if (!key || !me) {
    return (
      <main className="drv-loading" aria-busy="true">
        <span className="drv-mark" aria-hidden="true">
          T
        </span>
        <p>{t.loading}</p>
      </main>
    );
  }

  const active = activeOrderOf(orders);
  const confirmation = confirmationOf(orders);
  const sheet: OfferShown | null = offer ?? (confirmation ? { offer: { offer_id: -confirmation.id, kind: "ADVANCE", attempt: 1, deadline: "", seconds_left: 0, arrival_minutes: null, order: confirmation }, deadlineAt: null } : null);

  return (
    <div className="drv-app" data-testid="driver-app" data-state={me.state} data-online={online ? "yes" : "no"}>
      <header className="drv-top">
        <div className="drv-who">
          <span className="drv-callsign" data-testid="driver-callsign">
            {me.call_sign}
          </span>
          <span className={`drv-state drv-state-${me.state.toLowerCase()}`} data-testid="driver-state">
            {t.state[me.state]}
          </span>
        </div>
        <div className="drv-top-right">
          <span className={`drv-net ${online ? "drv-net-on" : "drv-net-off"}`} role="status" data-testid="driver-net">
            {online ? t.online : t.offline}
          </span>
          <LanguageSwitch />
        </div>
      </header>
      {!online || pending > 0 ? (
        <div className="drv-banner drv-banner-warn" role="status" data-testid="driver-offline">
          {!online ? <p>{t.offlineNote}</p> : null}
          {pending > 0 ? <p data-testid="driver-pending">{t.queued(pending)}</p> : null}
        </div>
      ) : null}
      {conflicts.length ? (
        <div className="drv-banner drv-banner-error" role="alert" data-testid="driver-conflict">
          {conflicts.map((c, i) => (
            <p key={i}>
              {/* The app's own words for the codes it knows (the server's message is in the server's language). */}
              {t.orderNo(c.orderId)} — {t.conflict(c.what, t.errors[c.code] ?? `${c.code}. ${c.message}`)}
            </p>
          ))}
          <button type="button" className="drv-btn drv-btn-small" onClick={() => setConflicts([])}>
            {t.dismiss}
          </button>
        </div>
      ) : null}
      {notice ? (
        <div className={`drv-banner ${notice.kind === "error" ? "drv-banner-error" : "drv-banner-info"}`} role={notice.kind === "error" ? "alert" : "status"} data-testid="driver-notice">
          <p>{notice.text}</p>
          <button type="button" className="drv-btn drv-btn-small" onClick={() => setNotice(null)}>
            {t.dismiss}
          </button>
        </div>
      ) : null}
      <main className="drv-main">
        {tab === "shift" ? (
          <>
            <HintCard free={me.on_shift && me.state === "FREE" && !me.on_break && !active} call={call} position={gps.last ?? (me.position.lat !== null && me.position.lon !== null ? { lat: me.position.lat, lon: me.position.lon } : null)} tileUrl={tileUrl} />
            <ShiftScreen me={me} gps={gps} queue={queuePlace} call={call} onChanged={refresh} onNotice={setNotice} hasOrder={Boolean(active)} />
          </>
        ) : null}
        {tab === "trip" ? <TripScreen order={active} orders={orders} call={call} position={gps.last ?? (me.position.lat !== null && me.position.lon !== null ? { lat: me.position.lat, lon: me.position.lon } : null)} online={online} tileUrl={tileUrl} onMove={moveOrder} /> : null}
        {tab === "messages" ? <MessagesScreen call={call} messages={messages} setMessages={setMessages} onRead={() => setUnread(0)} /> : null}
        {tab === "more" ? <MoreScreen me={me} call={call} /> : null}
      </main>
      <nav className="drv-tabs" aria-label={t.nav}>
        {TABS.map((name) => (
          <button key={name} type="button" className={`drv-tab${tab === name ? " drv-tab-on" : ""}`} aria-current={tab === name ? "page" : undefined} onClick={() => setTab(name)} data-testid={`tab-${name}`}>
            <span>{t.tabs[name]}</span>
            {name === "trip" && active ? <span className="drv-dot" aria-hidden="true" /> : null}
            {name === "messages" && unread > 0 ? <span className="drv-count">{unread}</span> : null}
          </button>
        ))}
      </nav>
      {sheet ? <OfferSheet shown={sheet} position={gps.last} onAnswer={answerOffer} onExpired={() => setOffer(null)} /> : null}
    </div>
  );
}
