// Our dispatch server as a client of the exchange (EXCHANGE_URL with
// EXCHANGE_CLIENT_KEY): it keeps one session, shared by all our instances
// (the token is stored in the `setting` table), calls the exchange directly
// when it needs the answer at once (take), and otherwise through the outbox
// (channel "exchange-call"), so that a sale, a status report or a completion
// is never lost and goes out in order per order.
//
// A queued call carries the token in meta.token. When the exchange refuses
// calls with 401 (the session was revoked), the keeper logs in again and
// rewrites the token of every pending call; delivered calls lose their token.
import { config } from "../../config";
import { db, type Db, type DbOrTx, type Tx } from "../../db";
import { rawQuery } from "../../db/sql";
import { ExchangeError, isDomainError, type ErrorCode } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";
import { log } from "../../log";
import { OutgoingError, replyObject, sendOutgoing } from "../../http/outgoing";
import { trimEndChar } from "../../text/trim";

export interface ParticipantSettings {
  /** The exchange's base address, e.g. https://exchange.example/exchange */
  url: string;
  key: string;
}

export function participantSettings(): ParticipantSettings | undefined {
  const cfg = config();
  if (!cfg.EXCHANGE_URL || !cfg.EXCHANGE_CLIENT_KEY) return undefined;
  return { url: trimEndChar(cfg.EXCHANGE_URL, "/"), key: cfg.EXCHANGE_CLIENT_KEY };
}

export function requireSettings(): ParticipantSettings {
  const s = participantSettings();
  if (!s) throw new ExchangeError("FORBIDDEN", { reason: "this server takes no part in an exchange (set EXCHANGE_URL and EXCHANGE_CLIENT_KEY)" });
  return s;
}

export interface StoredSession {
  url: string;
  token: string;
  slaves: string;
  trusted: string;
  at: string;
}

const SESSION_KEY = "exchange.session";

export async function readSession(db: DbOrTx): Promise<StoredSession | undefined> {
  const s = participantSettings();
  if (!s) return undefined;
  const row = await db.setting.findUnique({ where: { key: SESSION_KEY }, select: { value: true } });
  const v = row?.value as Partial<StoredSession> | null | undefined;
  if (!v || typeof v.token !== "string" || v.url !== s.url) return undefined;
  return { url: v.url, token: v.token, slaves: String(v.slaves ?? ""), trusted: String(v.trusted ?? ""), at: String(v.at ?? "") };
}

const TIMEOUT_MS = 10_000;

export interface ExchangeReply {
  status: number;
  body: Record<string, unknown>;
}

/**
 * The exchange's other addresses (the `slaves` of POST /session, which "also
 * accept requests") as base URLs like `main`: an entry with a scheme is a
 * base URL (its path, or main's path when it has none); a bare host, host:port
 * or IP address takes main's place in main's URL.
 */
export function slaveBases(main: string, slaves: string): string[] {
  const out: string[] = [];
  let base: URL;
  try {
    base = new URL(main);
  } catch {
    return out;
  }
  for (const raw of slaves.split(/[\s,;]+/)) {
    const entry = raw.trim();
    if (entry === "" || entry.length > 300) continue;
    try {
      let url: URL;
      if (/^https?:\/\//i.test(entry)) {
        url = new URL(entry);
        if (url.pathname === "/" || url.pathname === "") url.pathname = base.pathname;
      } else {
        url = new URL(base.href);
        url.host = entry.includes(":") && !entry.startsWith("[") && entry.split(":").length > 2 ? `[${entry}]` : entry;
      }
      const text = trimEndChar(url.href, "/");
      if (text !== main && !out.includes(text)) out.push(text);
    } catch {
      // not an address: skipped
    }
  }
  return out;
}

/** `target` (a URL under the exchange's main address) and the same path under each slave address. */
export async function exchangeTargets(db: DbOrTx, target: string): Promise<string[]> {
  const s = participantSettings();
  if (!s || !target.startsWith(`${s.url}/`)) return [target];
  const session = await readSession(db);
  const rest = target.slice(s.url.length);
  return [target, ...slaveBases(s.url, session?.slaves ?? "").map((base) => `${base}${rest}`)];
}

/** Whether another address of the exchange should be tried after this reply (none, or the exchange failed). */
export function tryAnotherAddress(status: number | undefined): boolean {
  return status === undefined || status === 502 || status === 503 || status === 504;
}

/** One HTTP POST to one address of the exchange, through the one outgoing client (server/http/outgoing.ts). */
async function postJson(url: string, body: unknown, token?: string): Promise<ExchangeReply | { unreachable: string }> {
  try {
    const reply = await sendOutgoing({
      method: "POST",
      url,
      timeoutMs: TIMEOUT_MS,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: reply.status, body: replyObject(reply) };
  } catch (error) {
    return { unreachable: error instanceof OutgoingError ? error.message : "the call failed" };
  }
}

/**
 * One call to the exchange (no retry): at its main address, and when that
 * cannot be reached or answers 502/503/504, at each of its slave addresses
 * in turn. Unreachable everywhere: a ServiceUnavailable-like error.
 */
export async function exchangeHttp(path: string, body: unknown, token?: string): Promise<ExchangeReply> {
  const { url } = requireSettings();
  const targets = await exchangeTargets(db(), `${url}/${path}`);
  let last: ExchangeReply | undefined;
  let failure = "";
  for (const target of targets) {
    const reply = await postJson(target, body, token);
    if ("unreachable" in reply) {
      failure = reply.unreachable;
      continue;
    }
    last = reply;
    if (!tryAnotherAddress(reply.status)) return reply;
  }
  if (last) return last;
  throw new ExchangeError("INTERNAL", { reason: `the exchange is unreachable: ${failure}` });
}

const REMOTE_CODES: Record<string, ErrorCode> = {
  Unauthorized: "UNAUTHORIZED",
  Forbidden: "FORBIDDEN",
  Gone: "GONE",
  NotAcceptable: "NOT_ACCEPTABLE",
  NotFound: "NOT_FOUND",
  MethodNotAllowed: "METHOD_NOT_ALLOWED",
  EmptyRequest: "EMPTY_REQUEST",
  NoRequiredFieldSet: "MISSING_PARAMETER",
  TypeError: "BAD_PARAMETER",
  BadRequest: "BAD_PARAMETER",
  Conflict: "CONFLICT",
};

/** The exchange's error reply as our DomainError. */
export function remoteError(reply: ExchangeReply): ExchangeError {
  const first = Array.isArray(reply.body.errors) ? (reply.body.errors[0] as Record<string, unknown> | undefined) : undefined;
  const name = typeof first?.code === "string" ? first.code : "";
  const detail = typeof first?.detail === "string" ? first.detail : `HTTP ${reply.status}`;
  const code: ErrorCode =
    REMOTE_CODES[name] ??
    (reply.status === 401 ? "UNAUTHORIZED" : reply.status === 403 ? "FORBIDDEN" : reply.status === 410 ? "GONE" : reply.status === 406 ? "NOT_ACCEPTABLE" : "INTERNAL");
  return new ExchangeError(name === "BadRequest" ? "BAD_REQUEST" : code, { reason: `the exchange refused: ${detail}`, remoteStatus: reply.status });
}

const loginKey = Symbol.for("taxi.exchangeLastLogin");
type Holder = { [loginKey]?: number };

/** POST /session with our client key; the new session replaces the stored one. */
export async function login(db: DbOrTx): Promise<StoredSession> {
  const s = requireSettings();
  (globalThis as Holder)[loginKey] = Date.now();
  const reply = await exchangeHttp("session", { data: { key: s.key } });
  const data = reply.body.data as { token?: unknown; slaves?: unknown; trusted?: unknown } | undefined;
  if (reply.status !== 200) throw remoteError(reply);
  // A 200 without a token is no refusal: say what was wrong with it ("refused: HTTP 200" told nobody anything).
  if (typeof data?.token !== "string" || data.token === "") {
    throw new ExchangeError("INTERNAL", { reason: "the exchange's login reply has no data.token", remoteStatus: reply.status });
  }
  const session: StoredSession = {
    url: s.url,
    token: data.token,
    slaves: typeof data.slaves === "string" ? data.slaves : "",
    trusted: typeof data.trusted === "string" ? data.trusted : "",
    at: new Date().toISOString(),
  };
  const value = session as unknown as Prisma.InputJsonObject;
  await db.setting.upsert({ where: { key: SESSION_KEY }, create: { key: SESSION_KEY, value }, update: { value }, select: { key: true } });
  log.info("exchange session opened", { exchange: s.url });
  return session;
}

/** What a failed call was, for the log: the code and the reason behind it (a bare "INTERNAL" tells nobody anything). */
export function failureOf(error: unknown): Record<string, string | number> {
  if (isDomainError(error)) {
    const { reason, remoteStatus } = error.details;
    return { code: error.code, ...(typeof reason === "string" ? { reason } : {}), ...(typeof remoteStatus === "number" ? { remoteStatus } : {}) };
  }
  return { error: error instanceof Error ? error.message : String(error) };
}

function lastLoginAgo(): number {
  const at = (globalThis as Holder)[loginKey];
  return at === undefined ? Infinity : Date.now() - at;
}

/** A direct call with our session (logging in when needed, and once more after a 401). */
export async function callExchange(db: Db, path: string, data: Prisma.InputJsonObject): Promise<Record<string, unknown>> {
  let session = (await readSession(db)) ?? (await login(db));
  let reply = await exchangeHttp(path, { meta: { token: session.token }, data }, session.token);
  if (reply.status === 401) {
    session = await login(db);
    reply = await exchangeHttp(path, { meta: { token: session.token }, data }, session.token);
  }
  if (reply.status !== 200) throw remoteError(reply);
  return reply.body;
}

export function callKey(localOrderId: number): string {
  return `exchange-call:order:${localOrderId}`;
}

/** Queues a call to the exchange about a local order (in the caller's transaction). */
export async function enqueueCall(tx: Tx, localOrderId: number, path: string, data: Prisma.InputJsonObject): Promise<void> {
  const { url } = requireSettings();
  const session = await readSession(tx);
  await tx.outboxMessage.create({
    data: {
      channel: "exchange-call",
      topic: path,
      orderingKey: callKey(localOrderId),
      target: `${url}/${path}`,
      payload: { meta: { token: session?.token ?? "" }, data },
    },
    select: { id: true },
  });
}

/**
 * The keeper's turn: log in when there is no session or the exchange refused
 * our calls with 401 (at most every 5 s), then give every pending call the
 * current token. Returns how many calls were given a new token.
 */
export async function keepSession(db: Db): Promise<number> {
  if (!participantSettings()) return 0;
  const query = rawQuery(db);
  let session = await readSession(db);
  const refused = await query<{ n: number | string }>(
    `SELECT count(*) AS n FROM outbox_message WHERE channel = 'exchange-call' AND status = 'PENDING' AND last_error = 'HTTP 401'`,
  );
  const refusedCount = Number(refused[0]?.n ?? 0);
  if (!session || (refusedCount > 0 && lastLoginAgo() > 5_000)) {
    if (lastLoginAgo() < 2_000) return 0;
    try {
      session = await login(db);
    } catch (error) {
      log.warn("exchange login failed", failureOf(error));
      return 0;
    }
  }
  const patched = await query<{ id: number }>(
    `UPDATE outbox_message
        SET payload = jsonb_set(payload, '{meta,token}', to_jsonb($1::text), true),
            next_attempt_at = CASE WHEN last_error = 'HTTP 401' THEN now() ELSE next_attempt_at END
      WHERE channel = 'exchange-call' AND status = 'PENDING'
        AND (payload->'meta'->>'token') IS DISTINCT FROM $1
      RETURNING id`,
    [session.token],
  );
  return patched.length;
}
