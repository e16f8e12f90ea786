// The client's network address, which the rate limits, the exchange's
// address-bound sessions and the participant endpoints' trust check use.
// Directly connected: the socket's peer. Behind load balancers or reverse
// proxies named in TRUSTED_PROXIES (addresses or CIDR ranges): the nearest
// address in X-Forwarded-For that is not one of them. A client that is not a
// trusted proxy cannot claim another address with the header.
import { BlockList, isIP } from "node:net";
import type { IncomingMessage } from "node:http";
import { config } from "../config";

/** "::ffff:10.0.0.1" is 10.0.0.1. */
export function normalizeIp(address: string): string {
  const a = address.trim();
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(a) ? a.slice(7) : a;
}

/** A BlockList of "10.0.0.1, 10.1.0.0/16, ::1" (entries that are not addresses are ignored). */
export function parseProxyList(text: string): BlockList {
  const list = new BlockList();
  for (const raw of text.split(",").map((s) => s.trim()).filter(Boolean)) {
    const [address = "", bits] = raw.split("/");
    const family = isIP(address);
    if (!family) continue;
    const type = family === 6 ? "ipv6" : "ipv4";
    if (bits !== undefined && /^\d+$/.test(bits)) list.addSubnet(address, Number(bits), type);
    else list.addAddress(address, type);
  }
  return list;
}

function contains(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? "ipv6" : "ipv4");
}

const cacheKey = Symbol.for("taxi.trustedProxies");
function trustedProxies(): { text: string; list: BlockList } {
  const holder = globalThis as { [cacheKey]?: { text: string; list: BlockList } };
  const text = config().TRUSTED_PROXIES;
  if (holder[cacheKey]?.text !== text) holder[cacheKey] = { text, list: parseProxyList(text) };
  return holder[cacheKey];
}

export function clientAddressOf(socketAddress: string, forwardedFor: string | string[] | undefined, proxies: BlockList): string {
  const peer = normalizeIp(socketAddress);
  if (!contains(proxies, peer) || !forwardedFor) return peer;
  const chain = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor).split(",").map(normalizeIp).filter((a) => isIP(a) !== 0);
  for (let i = chain.length - 1; i >= 0; i--) {
    if (!contains(proxies, chain[i]!)) return chain[i]!;
  }
  return chain[0] ?? peer;
}

/**
 * Set by the custom server on requests it hands to Next (after removing any
 * a client sent): the address clientAddress() found, for code running inside
 * Next (the console's sign-in throttle), which has no socket.
 */
export const CLIENT_ADDRESS_HEADER = "x-taxi-client-address";

/** The one place a request's client address is decided, for every listener and adapter. */
export function clientAddress(req: IncomingMessage): string {
  const proxies = trustedProxies();
  // No proxies configured (the usual case): the peer, without a BlockList check per request.
  if (!proxies.text.trim()) return normalizeIp(req.socket.remoteAddress ?? "");
  return clientAddressOf(req.socket.remoteAddress ?? "", req.headers["x-forwarded-for"], proxies.list);
}
