"use client";
// The dispatch strings in the console's language.
import { dispatchStrings, type DispatchStrings } from "@/server/i18n/dispatch-strings";
import { useI18n } from "../i18n";

export function useDispatchStrings(): DispatchStrings {
  return dispatchStrings[useI18n().locale];
}
