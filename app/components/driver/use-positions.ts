"use client";
// The phone's positions while on shift (watchPosition), handed on at the
// interface's pace: the simulator's drivers (docs/driver-app.md) report
// every 4 seconds while moving and every 30 while standing, and so does the
// app; every fix is kept as the driver's latest for the map.
import { useEffect, useRef, useState } from "react";
import type { PositionFix } from "./api";

export const MOVING_EVERY_MS = 4_000;
export const STANDING_EVERY_MS = 30_000;
/** Less than this from the last sent position counts as standing (GPS noise). */
const STANDING_METRES = 15;

export type GpsStatus = "off" | "waiting" | "on" | "denied";

export function metresBetween(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const r = 6_371_000;
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * r * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function usePositions(active: boolean, send: (fix: PositionFix) => void): { status: GpsStatus; accuracy: number; last: PositionFix | null } {
  const [status, setStatus] = useState<GpsStatus>("off");
  const [accuracy, setAccuracy] = useState(0);
  const [last, setLast] = useState<PositionFix | null>(null);
  const sent = useRef<{ fix: PositionFix; time: number } | null>(null);
  const latest = useRef<PositionFix | null>(null);
  const sendRef = useRef(send);
  useEffect(() => {
    sendRef.current = send;
  }, [send]);

  useEffect(() => {
    if (!active || typeof navigator === "undefined" || !navigator.geolocation) return;
    const take = (p: GeolocationPosition) => {
      const fix: PositionFix = {
        lat: p.coords.latitude,
        lon: p.coords.longitude,
        // km/h from m/s; a phone gives null when it does not know.
        speed: p.coords.speed !== null && Number.isFinite(p.coords.speed) ? Math.min(400, Math.max(0, p.coords.speed * 3.6)) : 0,
        bearing: p.coords.heading !== null && Number.isFinite(p.coords.heading) ? ((p.coords.heading % 360) + 360) % 360 : 0,
        at: new Date(p.timestamp || Date.now()).toISOString(),
      };
      setStatus("on");
      setAccuracy(Math.round(p.coords.accuracy));
      setLast(fix);
      latest.current = fix;
      offer(fix);
    };
    /** Sends `fix` when due: the first, a move after 4 s, anything after 30 s. */
    const offer = (fix: PositionFix) => {
      const now = Date.now();
      const prev = sent.current;
      const moved = prev ? metresBetween(prev.fix, fix) : Infinity;
      const due = !prev || (moved >= STANDING_METRES && now - prev.time >= MOVING_EVERY_MS) || now - prev.time >= STANDING_EVERY_MS;
      if (!due) return;
      sent.current = { fix, time: now };
      sendRef.current(fix);
    };
    const failed = (e: GeolocationPositionError) => setStatus(e.code === e.PERMISSION_DENIED ? "denied" : "waiting");
    const watch = navigator.geolocation.watchPosition(take, failed, { enableHighAccuracy: true, maximumAge: 2_000, timeout: 30_000 });
    // A fix that came too soon after the last one goes when its time comes; a standing phone, which may
    // report nothing new, repeats its last position at the standing pace.
    const timer = setInterval(() => {
      const fix = latest.current;
      const prev = sent.current;
      if (!fix || !prev) return;
      if (fix !== prev.fix) offer(fix);
      else if (Date.now() - prev.time >= STANDING_EVERY_MS) offer({ ...fix, speed: 0, at: new Date().toISOString() });
    }, 1_000);
    return () => {
      navigator.geolocation.clearWatch(watch);
      clearInterval(timer);
      sent.current = null;
      latest.current = null;
    };
  }, [active]);

  return { status: active ? (status === "off" ? "waiting" : status) : "off", accuracy, last };
}
