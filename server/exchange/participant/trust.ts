// Who may call our participant endpoints: the exchange we take part in. A
// call is accepted from the addresses of EXCHANGE_URL's host and from those
// the exchange named at login (`slaves`: its other addresses; `trusted`:
// addresses we must trust). Without EXCHANGE_URL / EXCHANGE_CLIENT_KEY the
// endpoints are Forbidden: this server takes part in no exchange.
import type { DbOrTx } from "../../db";
import { addressAllowed, addressEntries } from "../addresses";
import { forbidden, unauthorized } from "../errors";
import { participantSettings, readSession } from "./client";

const CACHE_MS = 5_000;
const cacheKey = Symbol.for("taxi.exchangeTrustedList");
type Holder = { [cacheKey]?: { at: number; list: string[] } };

async function trustedList(db: DbOrTx, exchangeUrl: string): Promise<string[]> {
  const holder = globalThis as Holder;
  const hit = holder[cacheKey];
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.list;
  const session = await readSession(db);
  const list = [...addressEntries(exchangeUrl), ...addressEntries(session?.slaves ?? ""), ...addressEntries(session?.trusted ?? "")];
  holder[cacheKey] = { at: Date.now(), list };
  return list;
}

export function forgetTrustedList(): void {
  (globalThis as Holder)[cacheKey] = undefined;
}

/** Throws Forbidden (no exchange configured) or Unauthorized (not the exchange's address). */
export async function checkExchangeCaller(db: DbOrTx, remoteAddress: string): Promise<void> {
  const settings = participantSettings();
  if (!settings) throw forbidden("this server takes no part in an exchange");
  const list = await trustedList(db, settings.url);
  if (!(await addressAllowed(remoteAddress, list))) throw unauthorized("calls are accepted only from the exchange's addresses");
}
