// Helpers of the round-three security suites (tests/security/*.test.ts): a
// server with a metrics listener, scrapes, console users made by the
// administrator, and sign-ins from chosen loopback addresses.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { TestDatabase } from "../../reliability/support/db";
import { send, type RawReply } from "../../reliability/support/http";
import { freePort, freshDatabase, startInstance, template, type AppInstance } from "../../reliability/support/instance";
import { csrf, signIn, trpcMutation } from "../../reliability/support/console";

export const METRICS_TOKEN = `metrics-${randomBytes(12).toString("hex")}`;

export interface Started {
  database: TestDatabase;
  app: AppInstance;
  metricsUrl: string;
}

/** A fresh database and a server on it with a metrics listener. */
export async function startWithMetrics(env: Record<string, string> = {}): Promise<Started> {
  const database = await freshDatabase();
  const metricsPort = await freePort();
  const app = await startInstance(database, { env: { METRICS_PORT: String(metricsPort), METRICS_TOKEN, ...env } });
  return { database, app, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` };
}

export async function scrape(metricsUrl: string): Promise<string> {
  const res = await fetch(metricsUrl, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (res.status !== 200) throw new Error(`metrics answered ${res.status}`);
  return res.text();
}

/** The value of one series (labels exactly as written), 0 when absent. */
export function seriesValue(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

let addressCounter = 0;
/** A loopback address no other test of this file used (127.0.200.x and up). */
export function freshAddress(): string {
  addressCounter++;
  return `127.${200 + Math.floor(addressCounter / 250)}.${Math.floor(addressCounter / 250) % 250}.${1 + (addressCounter % 250)}`;
}

/** The administrator's session (from an address of its own). */
export async function adminCookie(base: string): Promise<string> {
  const s = await signIn(base, template().adminEmail, template().adminPassword, { localAddress: freshAddress() });
  if (!s.cookie) throw new Error(`the administrator could not sign in: ${s.reply.status} ${s.reply.text}`);
  return s.cookie;
}

export interface Operator {
  id: number;
  email: string;
  password: string;
}

/** A console user made by the administrator through the console's tRPC. */
export async function createOperator(base: string, admin: string, roles: string[] = ["DISPATCHER"]): Promise<Operator> {
  const email = `op-${randomBytes(5).toString("hex")}@round-three.test`;
  const password = `pw-${randomBytes(9).toString("base64url")}`;
  const r = await trpcMutation(base, "admin.users.create", { email, name: "Round Three", password, roles }, admin);
  if (r.status !== 200) throw new Error(`admin.users.create: ${r.status} ${JSON.stringify(r.body)}`);
  return { id: (r.data as { id: number }).id, email, password };
}

/** A CSRF token and its cookie, fetched ahead so that a burst of sign-ins goes out at once. */
export async function preparedSignIn(base: string, email: string, password: string, localAddress: string, callbackUrl = "/"): Promise<() => Promise<RawReply>> {
  const c = await csrf(base, localAddress);
  const form = new URLSearchParams({ email, password, json: "true", callbackUrl, csrfToken: c.token });
  return () =>
    send(base, {
      method: "POST",
      path: "/api/auth/callback/credentials",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: c.cookie },
      body: form.toString(),
      localAddress,
      timeoutMs: 60_000,
    });
}

export function sessionCookieOf(reply: RawReply): string {
  const raw = reply.headers["set-cookie"];
  const all = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return all
    .map((c) => c.split(";")[0] ?? "")
    .filter((c) => /session-token=./.test(c))
    .join("; ");
}

export interface OpenStream {
  status: number;
  /** Everything received so far. */
  received(): string;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** A GET that answers with a stream (server-sent events), read as it comes. */
export function openStream(base: string, path: string, headers: Record<string, string>): Promise<OpenStream> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    let text = "";
    const req = http.request({ host: u.hostname, port: u.port, path, method: "GET", headers: { accept: "text/event-stream", ...headers }, agent: false }, (res) => {
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      const ended = new Promise<void>((done) => {
        res.on("end", () => done());
        res.on("close", () => done());
        res.on("error", () => done());
      });
      resolve({ status: res.statusCode ?? 0, received: () => text, ended, close: () => req.destroy() });
    });
    req.on("error", (error) => {
      if ((error as NodeJS.ErrnoException).code !== "ECONNRESET") reject(error);
    });
    req.end();
  });
}

/** next-auth's sign-out with its CSRF token, as the console's button does. */
export async function signOut(base: string, cookie: string): Promise<RawReply> {
  const localAddress = freshAddress();
  const c = await csrf(base, localAddress);
  return send(base, {
    method: "POST",
    path: "/api/auth/signout",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: `${cookie}; ${c.cookie}` },
    body: new URLSearchParams({ csrfToken: c.token, callbackUrl: "/signin", json: "true" }).toString(),
    localAddress,
  });
}

/** Whether `promise` settles within `ms`. */
export async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const result = await Promise.race([promise.then(() => true as const), late]);
  clearTimeout(timer);
  return result;
}
