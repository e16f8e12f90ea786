// The server's listeners (docs/panel.md, "TLS and identity").
//
// Without TLS settings: one plain HTTP listener on PORT, as before; the
// participants' control panel is not served at all.
//
// With TLS (TLS_CERT + TLS_KEY, or the generated development set TLS_DEV):
//   - PORT: HTTPS for the console and the APIs. It never asks for a client
//     certificate; /panel there is only a pointer to the panel's port.
//   - PANEL_PORT (default PORT + 1): HTTPS that asks every connection for a
//     client certificate in the handshake (requestCert, rejectUnauthorized
//     false, so that a refusal is a readable page, not a TLS alert) and serves
//     only the panel's paths and Next's static files.
// A separate listener because Node's TLS asks for the certificate during the
// handshake and TLS 1.3 has no renegotiation: asking on PORT would make
// browsers holding a participant's certificate offer it on every console
// page, and would mix certificate-bound and session-bound requests on one
// port.
//
// Routing on both listeners is decided on the request's canonical path
// (request-target.ts), the same path Next then sees.
//
// Identity: every request on every listener first loses its x-panel-* (and
// x-taxi-*) headers. On the panel's listener, each request to a panel page has its
// presented chain verified (chain to the designated root, dates, revocation
// of every certificate in the chain, a participant's client certificate we
// issued: server/certificates/verify.ts, read from the database each time, so
// a revocation ends open connections too); only then the server adds
// x-panel-identity, signed with a key derived from APP_SECRET
// (server/panel/identity.ts), which the panel's pages require.
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import { checkConnectionsOften } from "./connection-check";
import type { DetailedPeerCertificate, TLSSocket } from "node:tls";
import { ConfigError, config, type Config } from "../config";
import type { Db } from "../db";
import { log } from "../log";
import { developmentTlsFiles, ensureDevelopmentTls } from "../certificates/dev-tls";
import { trustAnchors, verifyClientChain } from "../certificates/verify";
import { certificateToPem } from "../certificates/x509";
import { PANEL_IDENTITY_HEADER, signPanelIdentity } from "../panel/identity";
import { stripInternalHeaders, toNext } from "./app-handler";
import { setInternalHeader } from "./headers";
import { canonicalizeRequest, underPrefix, type RequestTarget } from "./request-target";
import { isDraining } from "./health";
import { shedLoad } from "./load-shed";
import { panelDisabledPage, panelElsewherePage, panelNotFoundPage, refusalPage, requestLocale } from "../panel/refusal";

export type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

export interface TlsMaterial {
  key: string;
  cert: string;
  /** Where they came from, for the start-up banner. */
  source: "files" | "development";
  /** The development set's root, to trust in a browser or curl. */
  rootFile?: string;
}

export function tlsConfigured(cfg: Config = config()): boolean {
  return Boolean(cfg.TLS_DEV || cfg.TLS_CERT || cfg.TLS_KEY);
}

/** The settings together; a bad combination stops the start with a message naming them. */
export function checkTlsSettings(cfg: Config = config()): void {
  if (Boolean(cfg.TLS_CERT) !== Boolean(cfg.TLS_KEY)) throw new ConfigError("Bad configuration:\n  TLS_CERT, TLS_KEY: set both (PEM files) or neither");
  if (cfg.TLS_DEV && cfg.TLS_CERT) throw new ConfigError("Bad configuration:\n  TLS_DEV: generates its own certificate; unset it when TLS_CERT and TLS_KEY are given");
  if (cfg.TLS_CLIENT_CA && !tlsConfigured(cfg)) throw new ConfigError("Bad configuration:\n  TLS_CLIENT_CA: needs TLS_CERT and TLS_KEY (or TLS_DEV)");
  if (cfg.PANEL_PORT !== undefined && cfg.PANEL_PORT !== 0 && cfg.PANEL_PORT === cfg.PORT) throw new ConfigError("Bad configuration:\n  PANEL_PORT: must differ from PORT");
}

function readPem(variable: string, file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(`Bad configuration:\n  ${variable}: cannot read ${file} (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** The server's certificate and key, or undefined without TLS settings. */
export async function loadTls(db: Db, cfg: Config = config()): Promise<TlsMaterial | undefined> {
  checkTlsSettings(cfg);
  if (cfg.TLS_CLIENT_CA) readPem("TLS_CLIENT_CA", cfg.TLS_CLIENT_CA);
  if (cfg.TLS_CERT && cfg.TLS_KEY) return { cert: readPem("TLS_CERT", cfg.TLS_CERT), key: readPem("TLS_KEY", cfg.TLS_KEY), source: "files" };
  if (!cfg.TLS_DEV) return undefined;
  const hosts = cfg.PUBLIC_URL ? [new URL(cfg.PUBLIC_URL).hostname] : [];
  const files = await ensureDevelopmentTls(db, { dataDir: cfg.DATA_DIR, hosts });
  return { cert: readFileSync(files.certFile, "utf8"), key: readFileSync(files.keyFile, "utf8"), source: "development", rootFile: developmentTlsFiles(cfg.DATA_DIR).rootFile };
}

// ---------------------------------------------------------------- requests

/** A canonical path of the panel's (any case: "/Panel" is no way around the certificate). */
export function isPanelPath(path: string): boolean {
  return underPrefix(path, "/panel");
}

/**
 * What the panel's listener serves without a certificate: Next's built static
 * files, read only. Nothing else of Next's (images, data, other pages) is
 * reachable there; the decision is on the canonical path (request-target.ts).
 */
function isStaticAsset(target: RequestTarget, method: string | undefined): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  return target.path.startsWith("/_next/static/") || target.path === "/favicon.svg" || target.path === "/favicon.ico";
}

function sendHtml(res: ServerResponse, status: number, html: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    ...extra,
  });
  res.end(html);
}

/** The certificates the client presented, leaf first (DER). Empty: none. */
export function presentedChain(socket: TLSSocket): Buffer[] {
  const chain: Buffer[] = [];
  let cert = socket.getPeerCertificate(true) as DetailedPeerCertificate | Record<string, never>;
  const seen = new Set<string>();
  while (cert && "raw" in cert && cert.raw && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    chain.push(cert.raw);
    cert = cert.issuerCertificate;
  }
  return chain;
}

function hostFor(req: IncomingMessage, cfg: Config): string {
  const host = (req.headers.host ?? "").replace(/:\d+$/, "");
  if (/^[a-z0-9.-]{1,253}$/i.test(host) || /^\[[0-9a-f:.]+\]$/i.test(host)) return host;
  return cfg.PUBLIC_URL ? new URL(cfg.PUBLIC_URL).hostname : "localhost";
}

// ---------------------------------------------------------------- listeners

export interface AppServers {
  main: Server | HttpsServer;
  panel?: HttpsServer;
  scheme: "http" | "https";
  tls?: TlsMaterial;
  /** Listens on PORT, then the panel on PANEL_PORT (default PORT + 1). */
  listen: () => Promise<{ port: number; panelPort?: number }>;
  /**
   * SIGTERM's drain (docs/operations.md, "Faults"): stops accepting, ends
   * live streams politely, closes keep-alive connections as they go idle,
   * lets the requests in flight finish, and after `deadlineMs` closes what is
   * left. Resolves when every connection is closed.
   */
  drain: (deadlineMs: number) => Promise<void>;
}

/** The replies being written now, for the drain to end the live streams among them. */
const replies = new Set<ServerResponse>();

function isStream(res: ServerResponse): boolean {
  return String(res.getHeader("content-type") ?? "").startsWith("text/event-stream");
}

async function drainServers(servers: Array<Server | HttpsServer>, deadlineMs: number): Promise<void> {
  const closed = Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  // A live stream never ends by itself: end it (a client's EventSource reconnects, to another instance).
  for (const res of replies) {
    if (!isStream(res)) continue;
    res.on("error", () => undefined); // a write that races the end
    res.end();
  }
  const sweep = () => {
    for (const server of servers) server.closeIdleConnections();
  };
  sweep();
  const sweeper = setInterval(sweep, 50);
  let timer: NodeJS.Timeout | undefined;
  const late = await Promise.race([closed.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), deadlineMs)))]);
  clearTimeout(timer);
  clearInterval(sweeper);
  if (late) {
    log.warn("drain: deadline passed, closing the connections left", { replies: replies.size });
    for (const server of servers) server.closeAllConnections();
  }
}

function guarded(handler: Handler): Handler {
  return (req, res) => {
    replies.add(res);
    res.once("close", () => replies.delete(res));
    // Draining: each reply closes its connection, so that the client opens its next one elsewhere.
    if (isDraining()) res.setHeader("connection", "close");
    Promise.resolve()
      .then(() => handler(req, res))
      .catch((error: unknown) => {
        log.error("request failed", error);
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        res.end("Internal server error");
      });
  };
}

// Served over TLS, browsers are told to keep to HTTPS for this host for a
// year (not for subdomains: other services may live there).
const HSTS = "max-age=31536000";
function withHsts(handler: Handler): Handler {
  return (req, res) => {
    res.setHeader("strict-transport-security", HSTS);
    return handler(req, res);
  };
}

/**
 * Node's defaults leave connections unbounded and give a slow client five
 * minutes to send a request. Heads must arrive within 20 s and whole requests
 * (with bodies) within 60 s; an idle keep-alive connection closes after 65 s
 * (longer than the usual load balancer's 60 s, so the balancer closes first);
 * at most MAX_CONNECTIONS connections per listener. Replies may take as long
 * as they need: the console's live streams stay open for hours.
 */
export function applyConnectionLimits(server: Server | HttpsServer, cfg: Config): void {
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  // Node checks both timeouts only every connectionsCheckingInterval (30 s by default: heads were cut at 50 s, bodies at 90 s).
  checkConnectionsOften(server);
  server.keepAliveTimeout = 65_000;
  server.maxRequestsPerSocket = 10_000;
  server.maxConnections = cfg.MAX_CONNECTIONS;
}

export async function createAppServers(input: { db: Db; app: Handler; next: Handler; cfg?: Config }): Promise<AppServers> {
  const cfg = input.cfg ?? config();
  const tls = await loadTls(input.db, cfg);
  let panelPort: number | undefined;

  const mainHandler: Handler = (req, res) => {
    stripInternalHeaders(req);
    const target = canonicalizeRequest(req);
    // Bounded work in progress (load-shed.ts): the excess is refused in its protocol's form.
    if (!target) return shedLoad(req.url ?? "/", "", req, res, () => input.app(req, res));
    if (!isPanelPath(target.path)) return shedLoad(target.path, target.search, req, res, () => input.app(req, res));
    const locale = requestLocale(req);
    if (!tls || panelPort === undefined) return sendHtml(res, 404, panelDisabledPage(locale));
    const location = `https://${hostFor(req, cfg)}:${panelPort}${req.url ?? "/panel"}`;
    return sendHtml(res, 307, panelElsewherePage(locale, location), { location });
  };

  if (!tls) {
    // HSTS=yes: plain HTTP behind a proxy that terminates TLS; browsers only see HTTPS.
    const main = createHttpServer(guarded(cfg.HSTS ? withHsts(mainHandler) : mainHandler));
    applyConnectionLimits(main, cfg);
    return {
      main,
      scheme: "http",
      listen: async () => {
        await new Promise<void>((resolve) => main.listen(cfg.PORT, cfg.HOST, resolve));
        return { port: portOf(main, cfg.PORT) };
      },
      drain: (deadlineMs) => drainServers([main], deadlineMs),
    };
  }

  const tlsOptions = { key: tls.key, cert: tls.cert, minVersion: "TLSv1.2" as const };
  const main = createHttpsServer(tlsOptions, guarded(withHsts(mainHandler)));
  applyConnectionLimits(main, cfg);

  const panelHandler: Handler = async (req, res) => {
    stripInternalHeaders(req);
    const target = canonicalizeRequest(req);
    const locale = requestLocale(req);
    if (!target) return sendHtml(res, 400, panelNotFoundPage(locale));
    if (target.path === "/") {
      res.writeHead(302, { location: "/panel" });
      return res.end();
    }
    if (isStaticAsset(target, req.method)) return toNext(input.next, req, res);
    if (!isPanelPath(target.path)) return sendHtml(res, 404, panelNotFoundPage(locale));
    const verification = await verifyClientChain(input.db, presentedChain(req.socket as TLSSocket));
    if (!verification.ok) {
      log.info("panel access refused", { reason: verification.reason, detail: verification.detail, serial: verification.serial ?? null, remote: req.socket.remoteAddress ?? null });
      return sendHtml(res, 403, refusalPage(locale, verification.reason), { "x-panel-refusal": verification.reason });
    }
    setInternalHeader(req, PANEL_IDENTITY_HEADER, signPanelIdentity({ participantId: verification.participantId, serial: verification.serial }));
    return toNext(input.next, req, res);
  };

  // the names the browser is told to pick a certificate by: the designated root
  const anchors = await trustAnchors(input.db);
  const panel = createHttpsServer(
    {
      ...tlsOptions,
      requestCert: true,
      rejectUnauthorized: false,
      ...(anchors.length ? { ca: anchors.map(certificateToPem) } : {}),
      sessionIdContext: "taxi-panel",
    },
    guarded(withHsts(panelHandler)),
  );
  applyConnectionLimits(panel, cfg);
  if (!anchors.length) log.warn("the control panel has no designated root authority yet: create one with `npm run ca -- create-root` (or set TLS_CLIENT_CA)");

  return {
    main,
    panel,
    scheme: "https",
    tls,
    listen: async () => {
      await new Promise<void>((resolve) => main.listen(cfg.PORT, cfg.HOST, resolve));
      const port = portOf(main, cfg.PORT);
      const wanted = cfg.PANEL_PORT ?? (cfg.PORT === 0 ? 0 : cfg.PORT + 1);
      await new Promise<void>((resolve, reject) => {
        panel.once("error", reject);
        panel.listen(wanted, cfg.HOST, () => {
          panel.off("error", reject);
          resolve();
        });
      });
      panelPort = portOf(panel, wanted);
      return { port, panelPort };
    },
    drain: (deadlineMs) => drainServers([main, panel], deadlineMs),
  };
}

function portOf(server: Server | HttpsServer, fallback: number): number {
  const address = server.address();
  return typeof address === "object" && address ? address.port : fallback;
}
