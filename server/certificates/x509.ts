// X.509 and PKCS#12 with node-forge (no hand-written ASN.1): key pairs,
// certificates of the four profiles we issue (root and intermediate
// authorities, participants' client certificates, the development server
// certificate), PEM and DER conversions, names and fingerprints.
import { createHash, randomBytes } from "node:crypto";
import forge from "node-forge";

const pki = forge.pki;

export type Certificate = forge.pki.Certificate;
export type PrivateKey = forge.pki.rsa.PrivateKey;
export type Profile = "root" | "intermediate" | "client" | "server";

export interface NameInput {
  commonName: string;
  organization?: string;
  organizationalUnit?: string;
  country?: string;
  email?: string;
}

export interface KeyPair {
  publicKey: forge.pki.rsa.PublicKey;
  privateKey: PrivateKey;
}

/** RSA keys (forge uses Node's native generator when it is there). */
export function generateKeyPair(bits = 2048): KeyPair {
  return pki.rsa.generateKeyPair({ bits, e: 0x10001 });
}

/** A random positive 128-bit serial in lower-case hex (first byte 01..7f: minimal DER, never negative). */
export function newSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] ?? 1) & 0x7f) | 0x01;
  return bytes.toString("hex");
}

/** Lower-case hex without leading zero bytes: how serials are stored and compared. */
export function normalizeSerial(serial: string): string {
  let hex = serial.toLowerCase().replace(/[^0-9a-f]/g, "");
  while (hex.length > 2 && hex.startsWith("00")) hex = hex.slice(2);
  return hex;
}

function attributes(name: NameInput): forge.pki.CertificateField[] {
  const list: forge.pki.CertificateField[] = [];
  if (name.country) list.push({ shortName: "C", value: name.country });
  if (name.organization) list.push({ shortName: "O", value: name.organization, valueTagClass: forge.asn1.Type.UTF8 as unknown as forge.asn1.Class });
  if (name.organizationalUnit) list.push({ shortName: "OU", value: name.organizationalUnit, valueTagClass: forge.asn1.Type.UTF8 as unknown as forge.asn1.Class });
  list.push({ shortName: "CN", value: name.commonName, valueTagClass: forge.asn1.Type.UTF8 as unknown as forge.asn1.Class });
  if (name.email) list.push({ name: "emailAddress", value: name.email });
  return list;
}

function decodeUtf8(value: unknown): string {
  if (typeof value !== "string") return "";
  try {
    return forge.util.decodeUtf8(value);
  } catch {
    return value;
  }
}

/** "CN=..., O=..." in the order of the name (readable; for lists and logs). */
export function distinguishedName(fields: forge.pki.Certificate["subject"]): string {
  return fields.attributes
    .map((a) => `${a.shortName ?? a.name ?? a.type}=${decodeUtf8(a.value)}`)
    .reverse()
    .join(", ");
}

/** One attribute of the subject as text ("CN", "O", ...), "" when absent. */
export function nameField(cert: Certificate, shortName: string): string {
  const field = cert.subject.getField(shortName) as { value?: unknown } | null;
  return decodeUtf8(field?.value);
}

export function commonNameOf(cert: Certificate): string {
  return nameField(cert, "CN");
}

/**
 * The attributes of a parsed name, ready to be written again: forge keeps a
 * parsed UTF8String as its encoded bytes and would encode them a second time.
 */
function copyName(fields: forge.pki.CertificateField[]): forge.pki.CertificateField[] {
  const utf8 = forge.asn1.Type.UTF8 as unknown as forge.asn1.Class;
  return fields.map((field) => ({
    type: field.type,
    ...(field.name ? { name: field.name } : {}),
    ...(field.shortName ? { shortName: field.shortName } : {}),
    ...(field.valueTagClass !== undefined ? { valueTagClass: field.valueTagClass } : {}),
    value: field.valueTagClass === utf8 ? decodeUtf8(field.value) : field.value,
  }));
}

export interface BuildInput {
  profile: Profile;
  subject: NameInput;
  publicKey: forge.pki.rsa.PublicKey;
  /** The issuing authority; none for a self-signed root. */
  issuer?: { certificate: Certificate; privateKey: PrivateKey };
  /** Signs a root (its own key). */
  selfKey?: PrivateKey;
  serial?: string;
  notBefore: Date;
  notAfter: Date;
  /** server profile: DNS names and IP addresses. */
  hosts?: string[];
}

function isIp(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(":");
}

export function buildCertificate(input: BuildInput): Certificate {
  const cert = pki.createCertificate();
  cert.publicKey = input.publicKey;
  cert.serialNumber = input.serial ?? newSerial();
  cert.validity.notBefore = input.notBefore;
  cert.validity.notAfter = input.notAfter;
  cert.setSubject(attributes(input.subject));
  cert.setIssuer(input.issuer ? copyName(input.issuer.certificate.subject.attributes) : attributes(input.subject));

  const extensions: Array<Record<string, unknown>> = [];
  switch (input.profile) {
    case "root":
      extensions.push({ name: "basicConstraints", cA: true, pathLenConstraint: 1, critical: true });
      extensions.push({ name: "keyUsage", keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true });
      break;
    case "intermediate":
      extensions.push({ name: "basicConstraints", cA: true, pathLenConstraint: 0, critical: true });
      extensions.push({ name: "keyUsage", keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true });
      break;
    case "client":
      extensions.push({ name: "basicConstraints", cA: false, critical: true });
      extensions.push({ name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true });
      extensions.push({ name: "extKeyUsage", clientAuth: true });
      if (input.subject.email) extensions.push({ name: "subjectAltName", altNames: [{ type: 1, value: input.subject.email }] });
      break;
    case "server":
      extensions.push({ name: "basicConstraints", cA: false, critical: true });
      extensions.push({ name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true });
      extensions.push({ name: "extKeyUsage", serverAuth: true });
      extensions.push({
        name: "subjectAltName",
        altNames: (input.hosts ?? ["localhost"]).map((host) => (isIp(host) ? { type: 7, ip: host } : { type: 2, value: host })),
      });
      break;
  }
  extensions.push({ name: "subjectKeyIdentifier" });
  const authority = input.issuer?.certificate;
  extensions.push({
    name: "authorityKeyIdentifier",
    keyIdentifier: authority ? authority.generateSubjectKeyIdentifier().getBytes() : true,
  });
  cert.setExtensions(extensions);

  const signingKey = input.issuer?.privateKey ?? input.selfKey;
  if (!signingKey) throw new Error("a certificate needs an issuer or its own key");
  cert.sign(signingKey, forge.md.sha256.create());
  return cert;
}

export function certificateToPem(cert: Certificate): string {
  return pki.certificateToPem(cert);
}

export function certificateFromPem(pem: string): Certificate {
  return pki.certificateFromPem(pem);
}

/** All certificates of a PEM bundle, in order. */
export function certificatesFromPemBundle(pem: string): Certificate[] {
  return (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((block) => pki.certificateFromPem(block));
}

export function certificateFromDer(der: Buffer): Certificate {
  return pki.certificateFromAsn1(forge.asn1.fromDer(forge.util.createBuffer(der.toString("binary"))));
}

export function certificateToDer(cert: Certificate): Buffer {
  return Buffer.from(forge.asn1.toDer(pki.certificateToAsn1(cert)).getBytes(), "binary");
}

export function privateKeyToPem(key: PrivateKey): string {
  return pki.privateKeyToPem(key);
}

export function privateKeyFromPem(pem: string): PrivateKey {
  return pki.privateKeyFromPem(pem);
}

export function fingerprint256(cert: Certificate): string {
  return createHash("sha256").update(certificateToDer(cert)).digest("hex");
}

export function serialOf(cert: Certificate): string {
  return normalizeSerial(cert.serialNumber);
}

export function isSelfSigned(cert: Certificate): boolean {
  if (!cert.isIssuer(cert)) return false;
  try {
    return cert.verify(cert);
  } catch {
    return false;
  }
}

/** True when `issuer` names and signed `child`. */
export function signedBy(child: Certificate, issuer: Certificate): boolean {
  if (!issuer.issued(child)) return false;
  try {
    return issuer.verify(child);
  } catch {
    return false;
  }
}

export function hasClientAuth(cert: Certificate): boolean {
  const eku = cert.getExtension("extKeyUsage") as { clientAuth?: boolean } | null;
  const bc = cert.getExtension("basicConstraints") as { cA?: boolean } | null;
  return Boolean(eku?.clientAuth) && !bc?.cA;
}

export type Pkcs12Encryption = "3des" | "aes256";

/**
 * A password-protected PKCS#12 file: the key, the certificate and its chain
 * up to (and with) the root. 3DES with a SHA-1 MAC by default: the form every
 * browser and key store imports (macOS Keychain refuses AES-encrypted files).
 */
export function toPkcs12(input: {
  privateKey: PrivateKey;
  certificate: Certificate;
  chain: Certificate[];
  password: string;
  friendlyName: string;
  encryption?: Pkcs12Encryption;
}): Buffer {
  // AES-256 with PBKDF2-HMAC-SHA256 (OpenSSL 3's default scheme). 3DES with
  // the SHA-1 PKCS#12 KDF is kept only for old importers that ask for it.
  // node-forge always MACs the file with HMAC-SHA1 (integrity, not secrecy).
  const encryption = input.encryption ?? "aes256";
  const asn1 = forge.pkcs12.toPkcs12Asn1(input.privateKey, [input.certificate, ...input.chain], input.password, {
    algorithm: encryption,
    ...(encryption === "aes256" ? { prfAlgorithm: "sha256", count: 2048 } : {}),
    friendlyName: input.friendlyName,
    generateLocalKeyId: true,
  });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), "binary");
}

/** Reads a PKCS#12 file back (the tests and `ca inspect`): the certificates and whether a key is inside. */
export function readPkcs12(der: Buffer, password: string): { certificates: Certificate[]; hasKey: boolean } {
  const p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(der.toString("binary"))), false, password);
  const certBags = p12.getBags({ bagType: pki.oids.certBag ?? "" })[pki.oids.certBag ?? ""] ?? [];
  const keyBags = p12.getBags({ bagType: pki.oids.pkcs8ShroudedKeyBag ?? "" })[pki.oids.pkcs8ShroudedKeyBag ?? ""] ?? [];
  return {
    certificates: certBags.map((bag) => bag.cert).filter((c): c is Certificate => Boolean(c)),
    hasKey: keyBags.some((bag) => Boolean(bag.key)),
  };
}
