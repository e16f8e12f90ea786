"use client";
// The dispatch strings (shared/i18n/console/dispatch.ts) in the console's language.
import type { DispatchStrings } from "@/shared/i18n/console/dispatch";
import { useI18n } from "../i18n";

export function useDispatchStrings(): DispatchStrings {
  return useI18n().t.dispatch;
}
