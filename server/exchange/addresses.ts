// Network addresses: the exchange binds a session to the addresses of a
// participant's server, and our participant endpoints accept calls only from
// the exchange's addresses. An entry is an IP address or a host name (looked
// up, cached for a minute); lists are comma or space separated. IPv4 seen
// through an IPv6 socket (::ffff:127.0.0.1) counts as the IPv4 address.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

export function normalizeAddress(address: string): string {
  let a = address.trim().toLowerCase();
  if (a.startsWith("[") && a.endsWith("]")) a = a.slice(1, -1);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a);
  if (mapped?.[1]) return mapped[1];
  return a;
}

/** Entries of a list such as "10.0.0.5, gw.example.com https://x.example/path". */
export function addressEntries(list: string): string[] {
  return list
    .split(/[\s,;]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map((entry) => {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) {
        try {
          return new URL(entry).hostname;
        } catch {
          return entry;
        }
      }
      return entry;
    })
    .map(normalizeAddress);
}

const CACHE_MS = 60_000;
const cacheKey = Symbol.for("taxi.exchangeDnsCache");
type Holder = { [cacheKey]?: Map<string, { at: number; addresses: string[] }> };

function cache(): Map<string, { at: number; addresses: string[] }> {
  const holder = globalThis as Holder;
  holder[cacheKey] ??= new Map();
  return holder[cacheKey];
}

/** The IP addresses an entry stands for (itself when it is one). */
export async function resolveEntry(entry: string): Promise<string[]> {
  const normalized = normalizeAddress(entry);
  if (isIP(normalized)) return [normalized];
  const hit = cache().get(normalized);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.addresses;
  let addresses: string[] = [];
  try {
    addresses = (await lookup(normalized, { all: true })).map((r) => normalizeAddress(r.address));
  } catch {
    addresses = [];
  }
  if (cache().size > 1000) cache().clear();
  cache().set(normalized, { at: Date.now(), addresses });
  return addresses;
}

/** Whether the caller's address is one of the list's entries. */
export async function addressAllowed(remoteAddress: string, list: string[]): Promise<boolean> {
  const caller = normalizeAddress(remoteAddress);
  if (!caller) return false;
  for (const entry of list) {
    if (normalizeAddress(entry) === caller) return true;
  }
  for (const entry of list) {
    if ((await resolveEntry(entry)).includes(caller)) return true;
  }
  return false;
}
