// The console's tRPC endpoint as the custom server serves it (outside Next,
// server/http/console-trpc.ts), over real HTTP against one server whose
// public URL is https (so next-auth names its cookie "__Secure-…"):
//   - the session cookie: next-auth's own, from its sign-in endpoint, is
//     accepted (whole or in next-auth's chunks); a forged, altered, expired
//     one, one under the plain name, one signed with another secret, and one
//     past the session's absolute lifetime are refused in tRPC's error form,
//     and nothing is done;
//   - the decrypted-cookie cache keeps nobody in: a disabled operator's
//     still-valid cookie is refused on the next call;
//   - live events still stream (SSE), batches above the limit are refused, a
//     huge body is refused with 413, and every reply carries the security
//     headers Next used to add.
// Cookies are built by the test only to forge them (with next-auth's own
// encode); real ones come from next-auth's sign-in over HTTP.
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "@/server/auth/passwords";
import { TRPC_MAX_BATCH_SIZE } from "@/shared/trpc-limits";
import type { TestDatabase } from "../reliability/support/db";
import { dispatchClient } from "../reliability/support/dispatch";
import { closeAgents, send, type RawReply } from "../reliability/support/http";
import { freshDatabase, startInstance, template, type AppInstance } from "../reliability/support/instance";
import { openLiveEvents, signIn, trpcMutation, trpcQuery, type TrpcReply } from "../reliability/support/console";
import { until } from "../support/wait";

const PUBLIC_URL = "https://taxi.example.test";
const SECURE_NAME = "__Secure-next-auth.session-token";
const dispatcher = { email: "door-dispatcher@reliability.test", password: "door-password-1" };

let database: TestDatabase;
let app: AppInstance;
let admin = "";
let adminId = 0;

/** The session cookie's value in a Cookie header from sign-in. */
function tokenOf(cookie: string): string {
  const pair = cookie.split("; ").find((p) => p.startsWith(`${SECURE_NAME}=`));
  if (!pair) throw new Error(`no ${SECURE_NAME} in ${cookie}`);
  return pair.slice(SECURE_NAME.length + 1);
}

/** A session token as next-auth writes it, for forgeries: the claims our jwt callback puts in, with this secret and lifetime. */
function forge(claims: { uid: number; loginAt: number }, secret: string, maxAge = 3600): Promise<string> {
  return encode({ token: { ...claims, email: template().adminEmail, name: "Administrator" }, secret, maxAge });
}

/** The same base64url text with one character in the middle of its ciphertext changed. */
function altered(token: string): string {
  const parts = token.split(".");
  const body = parts[3]!;
  const at = Math.floor(body.length / 2);
  parts[3] = `${body.slice(0, at)}${body[at] === "A" ? "B" : "A"}${body.slice(at + 1)}`;
  return parts.join(".");
}

function me(cookie: string | undefined): Promise<TrpcReply> {
  return trpcQuery(app.url, "session.me", undefined, cookie);
}

const SECURITY_HEADERS = { "x-content-type-options": "nosniff", "x-frame-options": "DENY", "referrer-policy": "same-origin" };
function expectSecurityHeaders(r: Pick<RawReply, "headers">, what: string): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(r.headers[name], `${what}: ${name}`).toBe(value);
}

beforeAll(async () => {
  database = await freshDatabase();
  await database.use(async (prisma) => {
    await prisma.user.create({ data: { email: dispatcher.email, name: "Door dispatcher", passwordHash: await hashPassword(dispatcher.password), roles: ["DISPATCHER"] } });
  });
  app = await startInstance(database, { env: { PUBLIC_URL, RATE_LIMIT_PER_ADDRESS: "0", RATE_LIMIT_PER_KEY: "0" } });
  const s = await signIn(app.url, template().adminEmail, template().adminPassword);
  expect(s.cookie, `${s.reply.status} ${s.reply.text}`).toContain(`${SECURE_NAME}=`);
  admin = s.cookie;
  const who = await me(admin);
  expect(who.status, JSON.stringify(who.body)).toBe(200);
  adminId = (who.data as { id: number }).id;
}, 300_000);

afterAll(async () => {
  closeAgents();
  await app?.stop();
  await database?.drop();
});

describe("the session cookie outside Next", () => {
  it("next-auth's own cookie is accepted, whole or in next-auth's chunks", async () => {
    const token = tokenOf(admin);
    expect((await me(`${SECURE_NAME}=${token}`)).status).toBe(200);
    // next-auth splits a large cookie into NAME.0, NAME.1, … and joins them back in order.
    const half = Math.floor(token.length / 2);
    const chunked = `${SECURE_NAME}.1=${token.slice(half)}; other=x; ${SECURE_NAME}.0=${token.slice(0, half)}`;
    expect((await me(chunked)).status).toBe(200);
  });

  it("forged, altered, expired, misnamed and other-secret cookies are refused, and nothing is done", async () => {
    const t = template();
    const token = tokenOf(admin);
    // The control: a token made the way next-auth makes it, with our secret, is accepted, so the refusals below are for what they change.
    const genuine = await forge({ uid: adminId, loginAt: Date.now() }, t.appSecret);
    expect((await me(`${SECURE_NAME}=${genuine}`)).status).toBe(200);
    const refused: Record<string, string> = {
      forged: `${SECURE_NAME}=forged`,
      "an altered ciphertext": `${SECURE_NAME}=${altered(token)}`,
      "a truncated token": `${SECURE_NAME}=${token.slice(0, -4)}`,
      "expired (exp a minute ago)": `${SECURE_NAME}=${await forge({ uid: adminId, loginAt: Date.now() }, t.appSecret, -60)}`,
      "signed with another secret": `${SECURE_NAME}=${await forge({ uid: adminId, loginAt: Date.now() }, "another-secret-another-secret-0123456789")}`,
      "past the session's absolute lifetime (13 h)": `${SECURE_NAME}=${await forge({ uid: adminId, loginAt: Date.now() - 13 * 3600_000 }, t.appSecret)}`,
      // Behind https next-auth reads only the __Secure- name.
      "the plain name under https": `next-auth.session-token=${token}`,
      "a Bearer token instead of the cookie": "",
    };
    const before = await me(admin);
    const locale = (before.data as { locale: string }).locale;
    const other = locale === "en" ? "ru" : "en";
    for (const [what, cookie] of Object.entries(refused)) {
      const headers: Record<string, string> = cookie ? {} : { authorization: `Bearer ${token}` };
      const query = await send(app.url, { method: "GET", path: "/api/trpc/session.me", headers: { ...headers, ...(cookie ? { cookie } : {}) } });
      expect(query.status, `${what}: ${query.text}`).toBe(401);
      expect(JSON.parse(query.text), what).toMatchObject({ error: { json: { data: { code: "UNAUTHORIZED", httpStatus: 401 } } } });
      expectSecurityHeaders(query, what);
      const write = await trpcMutation(app.url, "session.setLocale", { locale: other }, cookie || undefined, headers);
      expect(write.status, what).toBe(401);
      expect(write.error?.data.code, what).toBe("UNAUTHORIZED");
    }
    // Nothing was done: the operator's language is as it was.
    expect((await me(admin)).data).toMatchObject({ locale });
    // The same value again after a refusal is still refused (a refusal is not remembered as a success).
    expect((await me(`${SECURE_NAME}=${altered(token)}`)).status).toBe(401);
    expect((await me(admin)).status).toBe(200);
  });

  it("a disabled operator's still-valid cookie is refused on the next call, and stays refused once enabled again", async () => {
    const s = await signIn(app.url, dispatcher.email, dispatcher.password);
    expect(s.cookie).toContain(`${SECURE_NAME}=`);
    const who = await me(s.cookie);
    expect(who.status).toBe(200);
    const userId = (who.data as { id: number }).id;
    // Called twice: the second call is answered from the decrypted-cookie cache.
    expect((await trpcQuery(app.url, "orders.counts", undefined, s.cookie)).status).toBe(200);
    const disable = await trpcMutation(app.url, "admin.users.setDisabled", { userId, disabled: true }, admin);
    expect(disable.status, JSON.stringify(disable.body)).toBe(200);
    const refused = await trpcQuery(app.url, "orders.counts", undefined, s.cookie);
    expect(refused.status).toBe(401);
    expect(refused.error?.data.code).toBe("UNAUTHORIZED");
    expect((await me(s.cookie)).status).toBe(401);
    // Disabling ended the user's sessions (server/auth/session-epoch.ts): enabled again, the old cookie stays refused; a new sign-in works.
    expect((await trpcMutation(app.url, "admin.users.setDisabled", { userId, disabled: false }, admin)).status).toBe(200);
    expect((await me(s.cookie)).status).toBe(401);
    const again = await signIn(app.url, dispatcher.email, dispatcher.password);
    expect((await me(again.cookie)).status).toBe(200);
  });
});

describe("the endpoint", () => {
  it("live events stream over SSE", async () => {
    const stream = await openLiveEvents(app.url, admin);
    try {
      expect(stream.status).toBe(200);
      const api = dispatchClient(app.url, template().apiKey);
      // The stream subscribes once its first message is out: an order created after that reaches it.
      const created: string[] = [];
      await until("an order event on the stream", async () => {
        const made = await api.post<{ uuid: string }>("order", { phone: "89161234567", street: "ул. Ленина", house: "4", moderation_required: "no", need_notify: "no" });
        expect(made.status, JSON.stringify(made.error)).toBe("DONE");
        created.push(made.response.uuid);
        return stream.events.some((e) => created.some((uuid) => JSON.stringify(e).includes(uuid)));
      }, 30_000, 300);
      expect(JSON.stringify(stream.events)).toContain('"type":"order.created"');
    } finally {
      stream.close();
    }
  });

  it("a batch of up to the limit is served; one above it is refused in tRPC's form", async () => {
    const batch = (n: number) => send(app.url, {
      method: "GET",
      path: `/api/trpc/${Array.from({ length: n }, () => "session.me").join(",")}?batch=1&input=${encodeURIComponent("{}")}`,
      headers: { cookie: admin },
    });
    const full = await batch(TRPC_MAX_BATCH_SIZE);
    expect(full.status, full.text.slice(0, 300)).toBe(200);
    expect(JSON.parse(full.text)).toHaveLength(TRPC_MAX_BATCH_SIZE);
    const over = await batch(TRPC_MAX_BATCH_SIZE + 1);
    expect(over.status).toBe(400);
    expect(JSON.parse(over.text)).toMatchObject({ error: { json: { data: { code: "BAD_REQUEST" } } } });
    expectSecurityHeaders(over, "a batch over the limit");
  });

  it("a body over 1 MiB is refused with 413, declared or streamed, before any procedure runs", async () => {
    const huge = Buffer.alloc(2 * 1024 * 1024 + 1, "a");
    for (const chunked of [false, true]) {
      const r = await send(app.url, { method: "POST", path: "/api/trpc/session.setLocale", headers: { "content-type": "application/json", cookie: admin }, body: huge, chunked, timeoutMs: 30_000 }).catch((error: Error) => error);
      // A streamed body is cut off at the limit: the reply is a 413, or the connection closes under the sender.
      if (r instanceof Error) {
        expect(chunked, r.message).toBe(true);
        continue;
      }
      expect(r.status, `chunked=${chunked}`).toBe(413);
      expect(JSON.parse(r.text)).toMatchObject({ error: { json: { data: { code: "PAYLOAD_TOO_LARGE", httpStatus: 413 } } } });
      expectSecurityHeaders(r, `413 chunked=${chunked}`);
    }
    expect((await me(admin)).status).toBe(200);
  });

  it("every reply carries the security headers; paths are matched exactly, as under Next", async () => {
    const replies: Array<[string, RawReply]> = [
      ["a query", await send(app.url, { method: "GET", path: "/api/trpc/session.me", headers: { cookie: admin } })],
      ["a mutation", await send(app.url, { method: "POST", path: "/api/trpc/session.setLocale", headers: { cookie: admin, "content-type": "application/json" }, body: '{"json":{"locale":"en"}}' })],
      ["no session", await send(app.url, { method: "GET", path: "/api/trpc/session.me" })],
      ["an unknown procedure", await send(app.url, { method: "GET", path: "/api/trpc/no.such.procedure", headers: { cookie: admin } })],
      ["a wrong method", await send(app.url, { method: "PUT", path: "/api/trpc/session.me", headers: { cookie: admin } })],
      ["OPTIONS", await send(app.url, { method: "OPTIONS", path: "/api/trpc/session.me" })],
    ];
    for (const [what, r] of replies) {
      expect(r.status, what).toBeLessThan(500);
      expectSecurityHeaders(r, what);
    }
    expect(replies[0]![1].status).toBe(200);
    expect(replies[1]![1].status).toBe(200);
    expect(replies[3]![1].status).toBe(404);
    expect(JSON.parse(replies[3]![1].text)).toMatchObject({ error: { json: { data: { code: "NOT_FOUND" } } } });
    expect(replies[4]![1].status).toBe(405);
    expect(JSON.parse(replies[4]![1].text)).toMatchObject({ error: { json: { data: { code: "METHOD_NOT_SUPPORTED" } } } });
    expect(replies[5]![1].status).toBe(204);
    // Another case is not the console's endpoint: the dispatch API answers it as an unknown path, in its own form.
    for (const path of ["/API/trpc/session.me", "/api/TRPC/session.me", "/api/Trpc/session.me"]) {
      const r = await send(app.url, { method: "GET", path, headers: { cookie: admin } });
      expect(r.status, path).toBe(404);
      expect(r.text, path).not.toContain('"result"');
    }
    // A path that is not a valid target is refused in tRPC's form, never a 500.
    const invalid = await send(app.url, { method: "GET", path: "/api/trpc/%E0%A4%A", headers: { cookie: admin } });
    expect(invalid.status).toBe(400);
    expect(JSON.parse(invalid.text)).toMatchObject({ error: { json: { data: { code: "BAD_REQUEST" } } } });
  });
});
