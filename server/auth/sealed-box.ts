// Secrets the server must read back (certificate authorities' private keys,
// integrators' callback signing secrets), sealed at rest with AES-256-GCM under
// a key derived from APP_SECRET by HKDF-SHA256 with a label of each use: a copy
// of the database alone opens none of them. Format: v1.<iv>.<tag>.<ciphertext>.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { appSecret } from "./secret";

const VERSION = "v1";

/** What a sealed secret is for: HKDF's salt and info, so that each use has a key of its own. */
export interface BoxLabel {
  salt: string;
  info: string;
}

function boxKey(label: BoxLabel, secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", Buffer.from(secret, "utf8"), Buffer.from(label.salt), Buffer.from(label.info), 32));
}

export function seal(label: BoxLabel, plain: string, secret = appSecret()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", boxKey(label, secret), iv);
  cipher.setAAD(Buffer.from(VERSION));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${VERSION}.${iv.toString("base64url")}.${cipher.getAuthTag().toString("base64url")}.${body.toString("base64url")}`;
}

/** The plain text, "format" for a value that is not a sealed box, "secret" when it cannot be opened (APP_SECRET changed). */
export function open(label: BoxLabel, sealed: string, secret = appSecret()): { plain: string } | { failed: "format" | "secret" } {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || !body) return { failed: "format" };
  try {
    const decipher = createDecipheriv("aes-256-gcm", boxKey(label, secret), Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(VERSION));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return { plain: Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8") };
  } catch {
    return { failed: "secret" };
  }
}
