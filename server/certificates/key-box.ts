// The authorities' private keys at rest: AES-256-GCM with a key derived from
// APP_SECRET (HKDF-SHA256, its own label), so a copy of the database alone
// cannot sign certificates. Changing APP_SECRET makes the stored keys
// unreadable: the authorities must then be created again.
import { appSecret } from "../auth/secret";
import { open, seal } from "../auth/sealed-box";
import { certificateError } from "./errors";

const LABEL = { salt: "issued-certificate", info: "authority-private-key" };

export function sealPrivateKey(pem: string, secret = appSecret()): string {
  return seal(LABEL, pem, secret);
}

export function openPrivateKey(sealed: string, secret = appSecret()): string {
  const opened = open(LABEL, sealed, secret);
  if ("plain" in opened) return opened.plain;
  if (opened.failed === "format") throw certificateError("INTERNAL", "the stored authority key has an unknown format");
  throw certificateError("INTERNAL", "the authority's private key cannot be decrypted with this APP_SECRET (was the secret changed?)");
}
