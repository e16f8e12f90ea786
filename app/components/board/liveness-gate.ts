// Asking before giving an order to a driver automatic dispatch passes over
// (away, a stale position, a silent app: the flags the server computes with
// server/dispatch/liveness.ts). Pure, so the rule is tested by hand
// (tests/unit/liveness-gate.test.ts); driver-picker.tsx holds the state.

export interface DriverLivenessFlags {
  away: boolean;
  stalePosition: boolean;
  silentApp: boolean;
}

/** The reasons a driver would probably not answer, in the console's words (empty: none, or not known). */
export function livenessReasons(flags: DriverLivenessFlags | undefined, words: { away: string; stalePosition: string; silentApp: string }): string[] {
  if (!flags) return [];
  return [flags.away && words.away, flags.stalePosition && words.stalePosition, flags.silentApp && words.silentApp].filter((r): r is string => typeof r === "string");
}

export function isRisky(flags: DriverLivenessFlags | undefined): boolean {
  return flags !== undefined && (flags.away || flags.stalePosition || flags.silentApp);
}

/**
 * One submit with `driver` chosen, the question armed for `armed` (a driver
 * id, or null): a driver dispatch offers orders passes at once; a risky one
 * arms the question on the first submit and passes on the next; choosing
 * another driver asks again.
 */
export function gateStep(armed: number | null, driver: { id: number; dispatch?: DriverLivenessFlags } | null): { pass: boolean; armed: number | null } {
  if (driver === null || !isRisky(driver.dispatch)) return { pass: true, armed: null };
  if (armed === driver.id) return { pass: true, armed };
  return { pass: false, armed: driver.id };
}
