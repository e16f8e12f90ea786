"use client";
// The current time for what a page shows ("waiting 3 min", "fresh"), read at
// render from state that a timer advances: rendering itself stays pure.
import { useEffect, useState } from "react";

export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
