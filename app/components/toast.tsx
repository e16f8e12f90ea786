"use client";
// Notices in the corner: successes fade, errors stay until closed (no
// silent failures). A tiny store so that non-React code (the query client's
// error hooks) can raise them too.
import { useEffect, useState } from "react";

export type ToastKind = "success" | "error" | "info";
export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
  action?: { label: string; run: () => void };
}

type Listener = (toasts: Toast[]) => void;
let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

function emit(): void {
  for (const l of listeners) l(toasts);
}

export function dismissToast(id: number): void {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

export function showToast(kind: ToastKind, text: string, action?: Toast["action"]): number {
  const id = nextId++;
  // The same error twice in a row is shown once.
  toasts = [...toasts.filter((t) => !(t.kind === kind && t.text === text)), { id, kind, text, action }].slice(-5);
  emit();
  if (kind !== "error") setTimeout(() => dismissToast(id), kind === "success" ? 3500 : 5000);
  return id;
}

export const toast = {
  success: (text: string) => showToast("success", text),
  info: (text: string) => showToast("info", text),
  error: (text: string, action?: Toast["action"]) => showToast("error", text, action),
};

export function Toaster({ closeLabel }: { closeLabel: string }) {
  const [list, setList] = useState<Toast[]>(toasts);
  useEffect(() => {
    listeners.add(setList);
    return () => {
      listeners.delete(setList);
    };
  }, []);
  return (
    <div className="toasts" aria-live="polite">
      {list.map((t) => (
        <div key={t.id} className={`toast toast-${t.kind}`} role={t.kind === "error" ? "alert" : "status"}>
          <span className="toast-text">{t.text}</span>
          {t.action ? (
            <button
              type="button"
              className="btn btn-small"
              onClick={() => {
                t.action?.run();
                dismissToast(t.id);
              }}
            >
              {t.action.label}
            </button>
          ) : null}
          <button type="button" className="toast-close" aria-label={closeLabel} onClick={() => dismissToast(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
