// Console sessions can be revoked (server/auth/session-epoch.ts): a cookie
// captured before sign-out, an administrator's password reset, a role
// change, disabling or "sign out everywhere" is refused on the next call, by
// the tRPC door and by the pages, and an open live stream ends at once.
// Before the fix such a cookie kept working for up to 12 hours.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAgents, send } from "../reliability/support/http";
import { trpcMutation, trpcQuery } from "../reliability/support/console";
import { adminCookie, createOperator, freshAddress, openStream, preparedSignIn, sessionCookieOf, signOut, startWithMetrics, within, type Operator, type Started } from "./support/round-three";

let s: Started;
let admin: string;

beforeAll(async () => {
  s = await startWithMetrics();
  admin = await adminCookie(s.app.url);
}, 300_000);

afterAll(async () => {
  closeAgents();
  await s?.app.stop();
  await s?.database.drop();
});

async function session(op: Operator): Promise<string> {
  const cookie = sessionCookieOf(await (await preparedSignIn(s.app.url, op.email, op.password, freshAddress()))());
  expect(cookie, op.email).not.toBe("");
  return cookie;
}

/** Whether the cookie still opens the console: a tRPC call and a page. */
async function opens(cookie: string): Promise<{ trpc: number; page: number; location: string }> {
  const trpc = await trpcQuery(s.app.url, "session.me", undefined, cookie);
  const page = await send(s.app.url, { method: "GET", path: "/orders", headers: { cookie }, localAddress: freshAddress() });
  return { trpc: trpc.status, page: page.status, location: String(page.headers.location ?? "") };
}

async function expectRefused(cookie: string, what: string): Promise<void> {
  const r = await opens(cookie);
  expect(r.trpc, `${what}: tRPC`).toBe(401);
  expect(r.page, `${what}: the page`).toBeGreaterThanOrEqual(300);
  expect(r.page, `${what}: the page`).toBeLessThan(400);
  expect(r.location, what).toMatch(/\/signin/);
}

/** A cookie that works, with an open live stream. */
async function liveSession(op: Operator) {
  const cookie = await session(op);
  const r = await opens(cookie);
  expect(r.trpc).toBe(200);
  expect(r.page).toBe(200);
  const stream = await openStream(s.app.url, "/api/trpc/live.events", { cookie });
  expect(stream.status).toBe(200);
  return { cookie, stream };
}

describe("revoking console sessions", () => {
  it("sign-out: the captured cookie is refused and its live stream ends", async () => {
    const op = await createOperator(s.app.url, admin);
    const { cookie, stream } = await liveSession(op);
    const out = await signOut(s.app.url, cookie);
    expect(out.status).toBeLessThan(400);
    expect(await within(stream.ended, 2_000), "the live stream ends").toBe(true);
    await expectRefused(cookie, "after sign-out");
    // A new sign-in works.
    expect((await opens(await session(op))).trpc).toBe(200);
  });

  it("an administrator's password reset, a role change and disabling end the user's sessions", async () => {
    const op = await createOperator(s.app.url, admin);
    const changes: Array<[string, () => Promise<unknown>]> = [
      ["password reset", () => trpcMutation(s.app.url, "admin.users.resetPassword", { userId: op.id, password: (op.password = `${op.password}x`) }, admin)],
      ["role change", () => trpcMutation(s.app.url, "admin.users.update", { userId: op.id, roles: ["DISPATCHER", "ACCOUNTANT"] }, admin)],
      ["disabling", () => trpcMutation(s.app.url, "admin.users.setDisabled", { userId: op.id, disabled: true }, admin)],
    ];
    for (const [what, change] of changes) {
      const { cookie, stream } = await liveSession(op);
      const r = (await change()) as { status: number };
      expect(r.status, what).toBe(200);
      expect(await within(stream.ended, 2_000), `${what}: the live stream ends`).toBe(true);
      await expectRefused(cookie, what);
    }
  });

  it("sign out everywhere ends every session of the user, and only theirs", async () => {
    const op = await createOperator(s.app.url, admin);
    const other = await createOperator(s.app.url, admin);
    const laptop = await session(op);
    const phone = await liveSession(op);
    const colleague = await session(other);
    const r = await trpcMutation(s.app.url, "session.signOutEverywhere", undefined, laptop);
    expect(r.status).toBe(200);
    expect(await within(phone.stream.ended, 2_000), "the other device's live stream ends").toBe(true);
    await expectRefused(laptop, "the device that asked");
    await expectRefused(phone.cookie, "another device");
    expect((await opens(colleague)).trpc, "another user's session").toBe(200);
  });
});
