/**
 * How often Node checks its listeners' headersTimeout and requestTimeout
 * (its default, 30 s, lets a slow client keep a connection up to 30 s past
 * either limit). Read when a listener starts listening, so it is set on
 * every server before listen() (tls.ts, server/metrics/endpoint.ts).
 * A check walks the listener's connections: once a second is cheap.
 */
export const CONNECTIONS_CHECK_MS = 1_000;

/**
 * Sets the interval on a node:http or node:https server before it listens.
 * Node reads `server.connectionsCheckingInterval` when listening starts (the
 * createServer option of the same name only sets that property); @types/node
 * does not declare the property, hence the cast.
 */
export function checkConnectionsOften(server: object): void {
  (server as { connectionsCheckingInterval: number }).connectionsCheckingInterval = CONNECTIONS_CHECK_MS;
}
