// The authorities' private keys at rest: AES-256-GCM with a key derived from
// APP_SECRET (HKDF-SHA256, its own label), so a copy of the database alone
// cannot sign certificates. Changing APP_SECRET makes the stored keys
// unreadable: the authorities must then be created again.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { appSecret } from "../auth/secret";
import { certificateError } from "./errors";

const VERSION = "v1";

function boxKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", Buffer.from(secret, "utf8"), Buffer.from("issued-certificate"), Buffer.from("authority-private-key"), 32));
}

export function sealPrivateKey(pem: string, secret = appSecret()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", boxKey(secret), iv);
  cipher.setAAD(Buffer.from(VERSION));
  const body = Buffer.concat([cipher.update(pem, "utf8"), cipher.final()]);
  return `${VERSION}.${iv.toString("base64url")}.${cipher.getAuthTag().toString("base64url")}.${body.toString("base64url")}`;
}

export function openPrivateKey(sealed: string, secret = appSecret()): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || !body) throw certificateError("INTERNAL", "the stored authority key has an unknown format");
  try {
    const decipher = createDecipheriv("aes-256-gcm", boxKey(secret), Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(VERSION));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw certificateError("INTERNAL", "the authority's private key cannot be decrypted with this APP_SECRET (was the secret changed?)");
  }
}
