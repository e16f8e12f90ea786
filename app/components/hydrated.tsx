"use client";
import { useEffect } from "react";

/**
 * Marks the document once the page's script has taken it over (data-hydrated on <html>). Text typed into a
 * server-rendered field before that is not seen by the page's state; the browser tests wait for the mark
 * after each navigation rather than guessing from a page's own widgets.
 */
export function Hydrated() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}
