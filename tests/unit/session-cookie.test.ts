// The console's session cookie read outside Next (server/auth/session-cookie.ts),
// for what HTTP cannot show: the decrypted-cookie cache answers only the exact
// value it decrypted, and a changed secret does not keep answering from it.
// (The endpoint itself, with next-auth's real cookies: tests/security/console-trpc.test.ts.)
import { encode } from "next-auth/jwt";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseCookies, sessionClaims } from "@/server/auth/session-cookie";

const SECRET = "unit-secret-unit-secret-unit-secret-0123";
const NAME = "next-auth.session-token";
const saved = { secret: process.env.NEXTAUTH_SECRET, url: process.env.NEXTAUTH_URL };

function token(claims: Record<string, unknown>, secret = SECRET, maxAge = 3600): Promise<string> {
  return encode({ token: claims, secret, maxAge });
}

beforeEach(() => {
  process.env.NEXTAUTH_SECRET = SECRET;
  process.env.NEXTAUTH_URL = "http://localhost:3000";
});

afterEach(() => {
  for (const [key, value] of [["NEXTAUTH_SECRET", saved.secret], ["NEXTAUTH_URL", saved.url]] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe("the session cookie's claims", () => {
  it("gives the claims of next-auth's token, and the same again from the cache", async () => {
    const loginAt = Date.now();
    const value = await token({ uid: 7, loginAt });
    const first = await sessionClaims(`${NAME}=${value}`);
    expect(first).toEqual({ userId: 7, loginAt });
    // A hit: the object the first call cached.
    expect(await sessionClaims(`a=b; ${NAME}=${value}`)).toBe(first);
  });

  it("refuses what is not exactly a token it decrypted: altered, extended, truncated, no user, expired", async () => {
    const value = await token({ uid: 8, loginAt: Date.now() });
    expect(await sessionClaims(`${NAME}=${value}`)).not.toBeNull();
    const mid = Math.floor(value.length / 2);
    const flipped = `${value.slice(0, mid)}${value[mid] === "A" ? "B" : "A"}${value.slice(mid + 1)}`;
    for (const forged of [flipped, `${value}x`, `${value}.`, value.slice(0, -1), ` ${value}x`]) {
      expect(await sessionClaims(`${NAME}=${forged}`), forged.slice(-20)).toBeNull();
    }
    expect(await sessionClaims(`${NAME}=${await token({ loginAt: Date.now() })}`)).toBeNull();
    expect(await sessionClaims(`${NAME}=${await token({ uid: "8", loginAt: Date.now() })}`)).toBeNull();
    expect(await sessionClaims(`${NAME}=${await token({ uid: 8, loginAt: Date.now() }, SECRET, -60)}`)).toBeNull();
  });

  it("a changed secret does not keep answering from the cache", async () => {
    const value = await token({ uid: 9, loginAt: Date.now() });
    expect(await sessionClaims(`${NAME}=${value}`)).not.toBeNull();
    process.env.NEXTAUTH_SECRET = "another-secret-another-secret-0123456789";
    expect(await sessionClaims(`${NAME}=${value}`)).toBeNull();
    process.env.NEXTAUTH_SECRET = SECRET;
    expect(await sessionClaims(`${NAME}=${value}`)).not.toBeNull();
  });

  it("reads next-auth's cookie names: __Secure- behind https only, and its chunks in order", async () => {
    const value = await token({ uid: 10, loginAt: Date.now() });
    const third = Math.ceil(value.length / 3);
    const chunks = [value.slice(0, third), value.slice(third, 2 * third), value.slice(2 * third)];
    expect(await sessionClaims(`${NAME}.2=${chunks[2]}; ${NAME}.0=${chunks[0]}; ${NAME}.1=${chunks[1]}`)).toMatchObject({ userId: 10 });
    expect(await sessionClaims(`__Secure-${NAME}=${value}`)).toBeNull();
    process.env.NEXTAUTH_URL = "https://taxi.example.test";
    expect(await sessionClaims(`__Secure-${NAME}=${value}`)).toMatchObject({ userId: 10 });
    expect(await sessionClaims(`${NAME}=${value}`)).toBeNull();
  });

  it("parses a Cookie header as Next did: the last of a name wins, values percent-decoded, bad ones dropped", () => {
    const cookies = parseCookies("a=1; b=x%20y; a=2;c=%E0%A4%A;  flag; d=e=f");
    expect(Object.fromEntries(cookies)).toEqual({ a: "2", b: "x y", flag: "true", d: "e=f" });
  });
});
