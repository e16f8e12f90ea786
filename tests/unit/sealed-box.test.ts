// The one sealed box for secrets the server reads back: each use's label and
// APP_SECRET are needed to open it, and nothing else opens it.
import { describe, expect, it } from "vitest";
import { open, seal } from "@/server/auth/sealed-box";
import { openCallbackSecret, sealCallbackSecret } from "@/server/notifications/callback-signature";
import { openPrivateKey, sealPrivateKey } from "@/server/certificates/key-box";

const SECRET = "sealed-box-test-secret-sealed-box-test-secret";
const A = { salt: "a", info: "first use" };
const B = { salt: "b", info: "second use" };

describe("sealed box", () => {
  it("opens what it sealed, with the same label and APP_SECRET only", () => {
    const sealed = seal(A, "привет, secret", SECRET);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(open(A, sealed, SECRET)).toEqual({ plain: "привет, secret" });
    expect(open(B, sealed, SECRET)).toEqual({ failed: "secret" });
    expect(open(A, sealed, `${SECRET}x`)).toEqual({ failed: "secret" });
    expect(open(A, "plain text", SECRET)).toEqual({ failed: "format" });
    expect(seal(A, "same", SECRET)).not.toBe(seal(A, "same", SECRET));
  });

  it("keeps callback secrets and authority keys apart", () => {
    const callback = sealCallbackSecret("cbsec_x", SECRET);
    const key = sealPrivateKey("-----BEGIN PRIVATE KEY-----", SECRET);
    expect(openCallbackSecret(callback, SECRET)).toBe("cbsec_x");
    expect(openPrivateKey(key, SECRET)).toBe("-----BEGIN PRIVATE KEY-----");
    expect(openCallbackSecret(key, SECRET)).toBeUndefined();
    expect(() => openPrivateKey(callback, SECRET)).toThrow(/cannot be decrypted/);
    expect(() => openPrivateKey("garbage", SECRET)).toThrow(/unknown format/);
  });
});
