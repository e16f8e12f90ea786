// Is a presented client certificate a key to the control panel? It must
// chain to the designated root authority (through intermediate authorities
// presented by the client or recorded in IssuedCertificate), be valid now,
// have no revoked certificate anywhere in its chain, be a client
// certificate we issued, and belong to an exchange participant.
//
// The designated root: the certificate(s) in the file TLS_CLIENT_CA when it
// is set, else the root authority in force in the database. A root presented
// by the client is never trusted for itself.
import { readFileSync } from "node:fs";
import path from "node:path";
import forge from "node-forge";
import { config } from "../config";
import type { DbOrTx } from "../db";
import { activeRoot } from "./authority";
import {
  certificateFromDer,
  certificateFromPem,
  certificatesFromPemBundle,
  certificateToDer,
  distinguishedName,
  hasClientAuth,
  isSelfSigned,
  serialOf,
  signedBy,
  type Certificate,
} from "./x509";

export const REFUSALS = [
  "NO_CERTIFICATE",
  "FOREIGN_AUTHORITY",
  "EXPIRED",
  "NOT_YET_VALID",
  "REVOKED",
  "NOT_A_CLIENT_CERTIFICATE",
  "UNKNOWN_CERTIFICATE",
  "NO_PARTICIPANT",
  "BAD_CERTIFICATE",
  "NO_ROOT",
] as const;
export type Refusal = (typeof REFUSALS)[number];

export interface PanelCertificate {
  participantId: number;
  serial: string;
  subject: string;
  notAfter: Date;
}

export type Verification = ({ ok: true } & PanelCertificate) | { ok: false; reason: Refusal; detail: string; serial?: string };

const refuse = (reason: Refusal, detail: string, serial?: string): Verification => ({ ok: false, reason, detail, ...(serial ? { serial } : {}) });

let fileAnchors: { file: string; certificates: Certificate[] } | undefined;

/** The designated root authority (see the header). Empty: nothing is trusted. */
export async function trustAnchors(db: DbOrTx, now = new Date()): Promise<Certificate[]> {
  const file = config().TLS_CLIENT_CA;
  if (file) {
    const resolved = path.resolve(file);
    if (fileAnchors?.file !== resolved) fileAnchors = { file: resolved, certificates: certificatesFromPemBundle(readFileSync(resolved, "utf8")) };
    return fileAnchors.certificates;
  }
  const root = await activeRoot(db, now);
  return root ? [certificateFromPem(root.certPem)] : [];
}

function parse(der: Buffer): Certificate | undefined {
  try {
    return certificateFromDer(der);
  } catch {
    // not RSA, or not a certificate: nothing we issued
    return undefined;
  }
}

/** Intermediate authorities recorded here whose subject is `child`'s issuer. */
async function recordedIssuers(db: DbOrTx, child: Certificate): Promise<Certificate[]> {
  const rows = await db.issuedCertificate.findMany({
    where: { kind: { in: ["INTERMEDIATE", "ROOT"] }, subject: distinguishedName(child.issuer) },
    select: { certPem: true },
    orderBy: { id: "desc" },
    take: 10,
  });
  return rows.map((row) => certificateFromPem(row.certPem));
}

/**
 * The path from the leaf up to a certificate signed by an anchor, each link
 * checked by signature (names alone prove nothing). Undefined: no such path.
 */
async function buildPath(db: DbOrTx, leaf: Certificate, presented: Certificate[], anchors: Certificate[]): Promise<{ path: Certificate[]; anchor: Certificate } | undefined> {
  const path: Certificate[] = [leaf];
  let current = leaf;
  for (let depth = 0; depth < 6; depth++) {
    const anchor = anchors.find((a) => signedBy(current, a));
    if (anchor) return { path, anchor };
    const candidates = [...presented, ...(await recordedIssuers(db, current))];
    const issuer = candidates.find((c) => !path.includes(c) && !anchors.includes(c) && signedBy(current, c));
    if (!issuer) return undefined;
    path.push(issuer);
    current = issuer;
  }
  return undefined;
}

function dateOf(value: Date): string {
  return value.toISOString();
}

/**
 * Verifies the chain a client presented in the TLS handshake (DER, leaf
 * first; the order of the rest does not matter).
 */
export async function verifyClientChain(db: DbOrTx, presentedDer: Buffer[], options: { now?: Date; anchors?: Certificate[] } = {}): Promise<Verification> {
  const now = options.now ?? new Date();
  const [leafDer, ...restDer] = presentedDer;
  if (!leafDer || leafDer.length === 0) return refuse("NO_CERTIFICATE", "no client certificate was presented");
  const leaf = parse(leafDer);
  if (!leaf) return refuse("FOREIGN_AUTHORITY", "the certificate was not issued by the exchange's authority (unreadable or not RSA)");
  const serial = serialOf(leaf);

  const anchors = options.anchors ?? (await trustAnchors(db, now));
  if (anchors.length === 0) return refuse("NO_ROOT", "the exchange has no designated root authority yet", serial);

  // roots presented by the client are ignored: trust comes from the anchors only
  const presented = restDer.map(parse).filter((c): c is Certificate => Boolean(c) && !isSelfSigned(c as Certificate));
  const built = await buildPath(db, leaf, presented, anchors);
  if (!built) return refuse("FOREIGN_AUTHORITY", `the certificate (${distinguishedName(leaf.issuer)}) does not chain to the designated root authority`, serial);

  // revocation of the certificate and of every authority above it
  const serials = [...built.path, built.anchor].map(serialOf);
  const revoked = await db.issuedCertificate.findMany({
    where: { serial: { in: serials }, revokedAt: { not: null } },
    select: { serial: true, subject: true, revokedAt: true },
  });
  const revokedLeaf = revoked.find((r) => r.serial === serial);
  if (revokedLeaf?.revokedAt) return refuse("REVOKED", `the certificate was revoked on ${dateOf(revokedLeaf.revokedAt)}`, serial);
  const revokedAuthority = revoked[0];
  if (revokedAuthority?.revokedAt) return refuse("REVOKED", `its authority ${revokedAuthority.subject} was revoked on ${dateOf(revokedAuthority.revokedAt)}`, serial);

  // dates (each certificate, the anchor too), signatures, CA constraints, key usage
  for (const cert of [...built.path, built.anchor]) {
    if (cert.validity.notAfter.getTime() <= now.getTime()) {
      const whose = cert === leaf ? "the certificate" : `its authority ${distinguishedName(cert.subject)}`;
      return refuse("EXPIRED", `${whose} expired on ${dateOf(cert.validity.notAfter)}`, serial);
    }
    if (cert.validity.notBefore.getTime() > now.getTime()) {
      return refuse("NOT_YET_VALID", `the certificate is valid from ${dateOf(cert.validity.notBefore)}`, serial);
    }
  }
  try {
    forge.pki.verifyCertificateChain(forge.pki.createCaStore(anchors), built.path, { validityCheckDate: now });
  } catch (error) {
    const e = error as { error?: string; message?: string };
    if (e.error === "forge.pki.CertificateExpired") return refuse("EXPIRED", e.message ?? "expired", serial);
    if (e.error === "forge.pki.UnknownCertificateAuthority") return refuse("FOREIGN_AUTHORITY", e.message ?? "unknown authority", serial);
    return refuse("BAD_CERTIFICATE", e.message ?? "the chain is not valid", serial);
  }
  if (!hasClientAuth(leaf)) return refuse("NOT_A_CLIENT_CERTIFICATE", "the certificate is not a client certificate", serial);

  // ours, exactly this certificate, and a participant's
  const row = await db.issuedCertificate.findUnique({
    where: { serial },
    select: { kind: true, certPem: true, participantId: true, subject: true, notAfter: true, participant: { select: { id: true } } },
  });
  if (!row || row.kind !== "CLIENT" || !certificateToDer(certificateFromPem(row.certPem)).equals(leafDer)) {
    return refuse("UNKNOWN_CERTIFICATE", "the certificate is not in the exchange's register of issued certificates", serial);
  }
  if (row.participantId === null || !row.participant) return refuse("NO_PARTICIPANT", "the certificate belongs to no exchange participant", serial);
  return { ok: true, participantId: row.participantId, serial, subject: row.subject, notAfter: row.notAfter };
}
