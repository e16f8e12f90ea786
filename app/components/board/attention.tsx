"use client";
// The orders that need a person, heard and seen while the board is open: the
// count in the tab's title ("(3) Заказы"), a sound when an order comes to
// moderation and another when an order goes past its red limit (on or off
// and its volume per user, kept on the server), and a desktop notification when the
// tab is hidden. The server measures the ages (server/console/order-age.ts).
import { useEffect, useRef } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { useLiveEvents } from "../live";

export type AlarmKind = "moderation" | "overdue";

let audio: AudioContext | null = null;

/**
 * Two tones made with the Web Audio API (no sound files to ship): moderation
 * rises (two short high notes), overdue falls (three lower, harsher ones).
 */
export function playAlarm(kind: AlarmKind, volume = 70): void {
  const Ctx = typeof window === "undefined" ? undefined : window.AudioContext;
  if (!Ctx) return;
  try {
    audio ??= new Ctx();
    const ctx = audio;
    if (ctx.state === "suspended") void ctx.resume();
    const notes: Array<[number, number]> = kind === "moderation" ? [[880, 0], [1320, 0.16]] : [[520, 0], [415, 0.22], [330, 0.44]];
    for (const [frequency, at] of notes) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = kind === "moderation" ? "sine" : "square";
      osc.frequency.value = frequency;
      const start = ctx.currentTime + at;
      // 70 (the default) is the loudness the tones were made at; 100 a little louder.
      gain.gain.setValueAtTime(Math.max(0.001, 0.17 * (volume / 100)), start);
      gain.gain.exponentialRampToValueAtTime(0.001, start + 0.18);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start);
      osc.stop(start + 0.2);
    }
  } catch {
    // No audio device: the title and the colours still tell.
  }
}

/**
 * The signed-in operator's alarm sound, on or off and its volume, kept on the
 * server per user (issue 34): the same on every workstation they sign in at.
 */
export function useAlarmSound(): { on: boolean; volume: number; setOn: (on: boolean) => void; setVolume: (volume: number) => void } {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const setting = useQuery(trpc.shift.alarm.queryOptions(undefined, { staleTime: 60_000 }));
  const key = trpc.shift.alarm.queryKey();
  const save = useMutation(
    trpc.shift.saveAlarm.mutationOptions({
      onMutate: (change) => {
        const before = queryClient.getQueryData(key);
        if (before) queryClient.setQueryData(key, { ...before, ...change });
        return before;
      },
      onError: (_e, _v, before) => {
        if (before) queryClient.setQueryData(key, before);
      },
      onSettled: () => void queryClient.invalidateQueries({ queryKey: key }),
    }),
  );
  const on = setting.data?.soundOn ?? true;
  const volume = setting.data?.volume ?? 70;
  const setOn = (value: boolean) => {
    save.mutate({ soundOn: value });
    // The click is the gesture browsers want before sound or notifications.
    if (value && typeof Notification !== "undefined" && Notification.permission === "default") void Notification.requestPermission();
    if (value) playAlarm("moderation", volume);
  };
  const setVolume = (value: number) => {
    save.mutate({ volume: value });
    playAlarm("moderation", value);
  };
  return { on, volume, setOn, setVolume };
}

function notify(title: string, body: string): void {
  if (typeof Notification === "undefined" || Notification.permission !== "granted" || !document.hidden) return;
  try {
    new Notification(title, { body, tag: "taxi-console-attention" });
  } catch {
    // Some browsers allow notifications only from a service worker: the title still counts.
  }
}

export function useAttention(soundOn: boolean, volume = 70) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const attention = useQuery(trpc.orders.attention.queryOptions(undefined, { refetchInterval: 5_000, staleTime: 0 }));
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useLiveEvents((event) => {
    if (event.type !== "order.created" && event.type !== "order.changed" && event.type !== "resync") return;
    pending.current ??= setTimeout(() => {
      pending.current = null;
      void queryClient.invalidateQueries({ queryKey: trpc.orders.attention.queryKey() });
    }, 300);
  });
  useEffect(() => () => {
    if (pending.current) clearTimeout(pending.current);
  }, []);

  const data = attention.data;
  const needHand = data?.needHand ?? 0;
  useEffect(() => {
    const base = t.board.title;
    document.title = needHand > 0 ? `(${needHand}) ${base}` : base;
  }, [needHand, t.board.title]);
  useEffect(() => {
    const base = t.board.title;
    return () => {
      if (document.title.endsWith(base)) document.title = base;
    };
  }, [t.board.title]);

  // Alarms on what is new since the last answer (not on the first one: the page just opened).
  const seen = useRef<{ moderation: number; red: Set<number> } | null>(null);
  useEffect(() => {
    if (!data) return;
    const before = seen.current;
    seen.current = { moderation: data.moderation, red: new Set(data.red) };
    if (!before) return;
    const newModeration = data.moderation > before.moderation;
    const newRed = data.red.some((id) => !before.red.has(id));
    if (newRed) {
      if (soundOn) playAlarm("overdue", volume);
      notify(t.age.notifyTitle(data.needHand), t.age.notifyOverdue(data.red.length));
    } else if (newModeration) {
      if (soundOn) playAlarm("moderation", volume);
      notify(t.age.notifyTitle(data.needHand), t.age.notifyModeration(data.moderation));
    }
  }, [data, soundOn, volume, t]);

  return data;
}
