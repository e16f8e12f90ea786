// Types and small helpers the exchange desk's tabs share.
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import { stateOfCode } from "@/shared/orders/states";

export type Outputs = inferRouterOutputs<AppRouter>["exchangeDesk"];

export type LinkRow = Outputs["links"]["items"][number];

export type Tab = "sold" | "bought" | "offers" | "sent" | "received" | "balance";

export const TABS: Tab[] = ["sold", "bought", "offers", "sent", "received", "balance"];

export const POLL_MS = 5_000;

export function phaseTone(phase: string): string {
  if (phase === "REFUSED") return "danger";
  if (phase === "CLOSED") return "muted";
  if (phase === "TAKEN") return "assigned";
  if (phase === "OFFERED" || phase === "SELLING" || phase === "TAKING") return "moderation";
  return "free";
}

export function stateTitleOfCode(code: number, stateTitle: (s: string) => string): string {
  const s = stateOfCode(code);
  return s ? `${code} · ${stateTitle(s)}` : String(code);
}
