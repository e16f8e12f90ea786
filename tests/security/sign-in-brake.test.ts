// The sign-in brake decides before the password is hashed, in the database
// (server/auth/sign-in-throttle.ts): a burst of guesses sent at once reaches
// scrypt at most MAX_ATTEMPTS_PER_ACCOUNT times, and a right password sent
// inside the burst is refused like the rest; one address guessing across many
// accounts is held to MAX_ATTEMPTS_PER_ADDRESS; and a flood of requests to
// /api/auth/* from one address is refused (429) before Next. The number of
// passwords checked is read from taxi_sign_in_attempts_total.
// Before the fix the brake was checked before the hash and counted after it:
// all 40 guesses of a burst were hashed and a right password inside it signed in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ATTEMPTS_PER_ACCOUNT, MAX_ATTEMPTS_PER_ADDRESS } from "@/server/auth/sign-in-throttle";
import { closeAgents, send } from "../reliability/support/http";
import { adminCookie, createOperator, freshAddress, preparedSignIn, scrape, seriesValue, sessionCookieOf, startWithMetrics, type Started } from "./support/round-three";

let s: Started;
let admin: string;

beforeAll(async () => {
  s = await startWithMetrics({ AUTH_RATE_PER_ADDRESS: "120" });
  admin = await adminCookie(s.app.url);
}, 300_000);

afterAll(async () => {
  closeAgents();
  await s?.app.stop();
  await s?.database.drop();
});

async function passwordsChecked(): Promise<number> {
  const text = await scrape(s.metricsUrl);
  return seriesValue(text, 'taxi_sign_in_attempts_total{result="accepted"}') + seriesValue(text, 'taxi_sign_in_attempts_total{result="rejected"}');
}

describe("the sign-in brake under concurrency", () => {
  it("40 guesses at once on one account: at most the limit is hashed, and the right password inside the burst is refused", async () => {
    const target = await createOperator(s.app.url, admin);
    const before = await passwordsChecked();
    // Every guess from its own address: only the account's brake can stop them.
    const guesses = await Promise.all(Array.from({ length: 40 }, (_, i) => preparedSignIn(s.app.url, target.email, `wrong-${i}`, freshAddress())));
    const right = await preparedSignIn(s.app.url, target.email, target.password, freshAddress());
    const burst = guesses.map((go) => go());
    // The right password goes out while the guesses are still being hashed.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const rightReply = await right();
    const replies = await Promise.all(burst);
    expect(replies.filter((r) => sessionCookieOf(r) !== "")).toEqual([]);
    expect(sessionCookieOf(rightReply), "the right password inside the burst").toBe("");
    const checked = (await passwordsChecked()) - before;
    expect(checked, "passwords hashed for 41 attempts").toBeLessThanOrEqual(MAX_ATTEMPTS_PER_ACCOUNT);
    expect(checked).toBeGreaterThan(0);
  });

  it("one address guessing across many accounts is held to its limit, and then refused even with a right password", async () => {
    const victim = await createOperator(s.app.url, admin);
    const attacker = freshAddress();
    const before = await passwordsChecked();
    const guesses = await Promise.all(Array.from({ length: 40 }, (_, i) => preparedSignIn(s.app.url, `nobody-${i}@guess.test`, "wrong-password", attacker)));
    const replies = await Promise.all(guesses.map((go) => go()));
    expect(replies.filter((r) => sessionCookieOf(r) !== "")).toEqual([]);
    const checked = (await passwordsChecked()) - before;
    expect(checked, "passwords hashed for 40 accounts from one address").toBeLessThanOrEqual(MAX_ATTEMPTS_PER_ADDRESS);
    expect(checked).toBeGreaterThan(0);
    const blocked = await (await preparedSignIn(s.app.url, victim.email, victim.password, attacker))();
    expect(sessionCookieOf(blocked), "a right password from the throttled address").toBe("");
    const elsewhere = await (await preparedSignIn(s.app.url, victim.email, victim.password, freshAddress()))();
    expect(sessionCookieOf(elsewhere), "the same password from another address").not.toBe("");
  });

  it("a flood of requests to /api/auth/* from one address is refused before Next; other addresses are served", async () => {
    const flooder = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 200; i += 20) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, (_, j) => send(s.app.url, { method: "GET", path: (i + j) % 2 ? "/api/auth/csrf" : "/api/auth/session", localAddress: flooder, timeoutMs: 30_000 })),
      );
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses.filter((x) => x === 429).length, "refused of 200").toBeGreaterThanOrEqual(60);
    expect(statuses.filter((x) => x >= 500)).toEqual([]);
    const other = await send(s.app.url, { method: "GET", path: "/api/auth/csrf", localAddress: freshAddress() });
    expect(other.status).toBe(200);
  });
});
