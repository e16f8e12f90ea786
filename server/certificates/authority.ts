// The exchange operator's certificate authority (docs/panel.md): one root
// authority, intermediate authorities under it, and participants' users'
// client certificates handed out as password-protected PKCS#12 files. Every
// certificate is recorded in IssuedCertificate; only the authorities'
// private keys are kept (sealed with APP_SECRET, see key-box.ts): a user's
// key leaves in the PKCS#12 file and is never stored.
//
// The console and `npm run ca` both call these functions.
import type { DbOrTx } from "../db";
import type { CertificateKind, Prisma } from "../generated/prisma/client";
import { certificateError } from "./errors";
import { openPrivateKey, sealPrivateKey } from "./key-box";
import {
  buildCertificate,
  certificateFromPem,
  certificateToPem,
  commonNameOf,
  distinguishedName,
  fingerprint256,
  generateKeyPair,
  nameField,
  normalizeSerial,
  privateKeyFromPem,
  privateKeyToPem,
  toPkcs12,
  type Certificate,
  type Pkcs12Encryption,
  type PrivateKey,
} from "./x509";
import { trimChar } from "../text/trim";

const DAY = 24 * 3600 * 1000;
/** Backdating of notBefore, for clocks a little behind ours. */
const SKEW_MS = 5 * 60 * 1000;
export const DEFAULT_ORGANIZATION = "Taxi Exchange";
export const MIN_PASSWORD_LENGTH = 12;
const AUTHORITY_KEY_BITS = 3072;
const CLIENT_KEY_BITS = 2048;

export type CertificateStatus = "active" | "revoked" | "expired" | "not_yet_valid";

export interface CertificateSummary {
  id: number;
  kind: CertificateKind;
  serial: string;
  subject: string;
  commonName: string;
  issuerSerial: string | null;
  participantId: number | null;
  participantName: string | null;
  notBefore: Date;
  notAfter: Date;
  revokedAt: Date | null;
  createdAt: Date;
  status: CertificateStatus;
  /** SHA-256 of the DER, hex. */
  fingerprint: string;
}

const SUMMARY_SELECT = {
  id: true,
  kind: true,
  serial: true,
  subject: true,
  issuerSerial: true,
  participantId: true,
  certPem: true,
  notBefore: true,
  notAfter: true,
  revokedAt: true,
  createdAt: true,
  participant: { select: { name: true } },
} as const satisfies Prisma.IssuedCertificateSelect;

type SummaryRow = Prisma.IssuedCertificateGetPayload<{ select: typeof SUMMARY_SELECT }>;

export function statusOf(row: { notBefore: Date; notAfter: Date; revokedAt: Date | null }, now = new Date()): CertificateStatus {
  if (row.revokedAt) return "revoked";
  if (row.notAfter.getTime() <= now.getTime()) return "expired";
  if (row.notBefore.getTime() > now.getTime()) return "not_yet_valid";
  return "active";
}

function summarize(row: SummaryRow, now = new Date()): CertificateSummary {
  const cert = certificateFromPem(row.certPem);
  return {
    id: row.id,
    kind: row.kind,
    serial: row.serial,
    subject: row.subject,
    commonName: commonNameOf(cert),
    issuerSerial: row.issuerSerial,
    participantId: row.participantId,
    participantName: row.participant?.name ?? null,
    notBefore: row.notBefore,
    notAfter: row.notAfter,
    revokedAt: row.revokedAt,
    createdAt: row.createdAt,
    status: statusOf(row, now),
    fingerprint: fingerprint256(cert),
  };
}

function validity(now: Date, days: number, cap?: Date): { notBefore: Date; notAfter: Date } {
  if (!Number.isFinite(days) || days <= 0 || days > 36_500) throw certificateError("BAD_PARAMETER", "the validity must be between 1 and 36500 days", { parameter: "days" });
  const notBefore = new Date(Math.floor((now.getTime() - SKEW_MS) / 1000) * 1000);
  let notAfter = new Date(Math.floor((now.getTime() + days * DAY) / 1000) * 1000);
  if (cap && notAfter.getTime() > cap.getTime()) notAfter = cap;
  return { notBefore, notAfter };
}

function requireName(value: string | undefined, parameter: string): string {
  const name = (value ?? "").trim();
  if (!name) throw certificateError("MISSING_PARAMETER", `${parameter} is required`, { parameter });
  if (name.length > 64) throw certificateError("BAD_PARAMETER", `${parameter} must be at most 64 characters`, { parameter });
  return name;
}

async function store(
  db: DbOrTx,
  input: { kind: CertificateKind; cert: Certificate; issuerSerial: string | null; participantId?: number | null; privateKey?: PrivateKey },
): Promise<CertificateSummary> {
  const pem = certificateToPem(input.cert);
  // the stored name is read back from the encoded certificate (what a verifier sees)
  const parsed = certificateFromPem(pem);
  const row = await db.issuedCertificate.create({
    data: {
      kind: input.kind,
      serial: normalizeSerial(parsed.serialNumber),
      subject: distinguishedName(parsed.subject),
      issuerSerial: input.issuerSerial,
      participantId: input.participantId ?? null,
      certPem: pem,
      keyEncrypted: input.privateKey ? sealPrivateKey(privateKeyToPem(input.privateKey)) : null,
      notBefore: parsed.validity.notBefore,
      notAfter: parsed.validity.notAfter,
    },
    select: SUMMARY_SELECT,
  });
  return summarize(row);
}

interface Authority {
  serial: string;
  kind: CertificateKind;
  certificate: Certificate;
  privateKey: PrivateKey;
  notAfter: Date;
  issuerSerial: string | null;
}

/** An authority able to sign now: present, not revoked, valid, with its key. */
async function loadAuthority(db: DbOrTx, serial: string, now: Date): Promise<Authority> {
  const row = await db.issuedCertificate.findUnique({ where: { serial: normalizeSerial(serial) } });
  if (!row || row.kind === "CLIENT") throw certificateError("NOT_FOUND", `no authority with serial ${serial}`, { serial });
  if (row.revokedAt) throw certificateError("GONE", `the authority ${row.subject} was revoked`, { serial: row.serial });
  if (statusOf(row, now) !== "active") throw certificateError("GONE", `the authority ${row.subject} is not valid now`, { serial: row.serial });
  if (!row.keyEncrypted) throw certificateError("CONFLICT", `the private key of ${row.subject} is not held here`, { serial: row.serial });
  return {
    serial: row.serial,
    kind: row.kind,
    certificate: certificateFromPem(row.certPem),
    privateKey: privateKeyFromPem(openPrivateKey(row.keyEncrypted)),
    notAfter: row.notAfter,
    issuerSerial: row.issuerSerial,
  };
}

const activeWhere = (now: Date) => ({ revokedAt: null, notBefore: { lte: now }, notAfter: { gt: now } });

/** The root authority in force in the database: the newest valid, unrevoked one. */
export async function activeRoot(db: DbOrTx, now = new Date()) {
  return db.issuedCertificate.findFirst({ where: { kind: "ROOT", ...activeWhere(now) }, orderBy: { id: "desc" } });
}

/** The intermediate authority new client certificates come from: the newest valid one under the active root. */
export async function activeIntermediate(db: DbOrTx, now = new Date()) {
  const root = await activeRoot(db, now);
  if (!root) return null;
  return db.issuedCertificate.findFirst({
    where: { kind: "INTERMEDIATE", issuerSerial: root.serial, keyEncrypted: { not: null }, ...activeWhere(now) },
    orderBy: { id: "desc" },
  });
}

export interface RootInput {
  commonName: string;
  organization?: string;
  country?: string;
  days?: number;
  /** Retire (revoke) the root in force, which ends every certificate under it. */
  replace?: boolean;
  now?: Date;
}

export async function createRootAuthority(db: DbOrTx, input: RootInput): Promise<CertificateSummary> {
  const now = input.now ?? new Date();
  const commonName = requireName(input.commonName, "name");
  const existing = await activeRoot(db, now);
  if (existing && !input.replace) {
    throw certificateError("CONFLICT", `a root authority is already in force (${existing.subject}, serial ${existing.serial}); replacing it ends every certificate under it`, {
      serial: existing.serial,
    });
  }
  const keys = generateKeyPair(AUTHORITY_KEY_BITS);
  const cert = buildCertificate({
    profile: "root",
    subject: { commonName, organization: input.organization?.trim() || DEFAULT_ORGANIZATION, ...(input.country ? { country: input.country } : {}) },
    publicKey: keys.publicKey,
    selfKey: keys.privateKey,
    ...validity(now, input.days ?? 3650),
  });
  if (existing) await db.issuedCertificate.updateMany({ where: { kind: "ROOT", revokedAt: null }, data: { revokedAt: now } });
  return store(db, { kind: "ROOT", cert, issuerSerial: null, privateKey: keys.privateKey });
}

export interface IntermediateInput {
  commonName: string;
  organization?: string;
  days?: number;
  /** The root to sign with (default: the root in force). */
  issuerSerial?: string;
  now?: Date;
}

export async function createIntermediateAuthority(db: DbOrTx, input: IntermediateInput): Promise<CertificateSummary> {
  const now = input.now ?? new Date();
  const commonName = requireName(input.commonName, "name");
  const rootSerial = input.issuerSerial ?? (await activeRoot(db, now))?.serial;
  if (!rootSerial) throw certificateError("CONFLICT", "there is no root authority yet: create the root first");
  const root = await loadAuthority(db, rootSerial, now);
  if (root.kind !== "ROOT") throw certificateError("BAD_PARAMETER", "an intermediate authority is issued by the root", { parameter: "issuerSerial" });
  const keys = generateKeyPair(AUTHORITY_KEY_BITS);
  const cert = buildCertificate({
    profile: "intermediate",
    subject: { commonName, organization: input.organization?.trim() || nameField(root.certificate, "O") || DEFAULT_ORGANIZATION },
    publicKey: keys.publicKey,
    issuer: { certificate: root.certificate, privateKey: root.privateKey },
    ...validity(now, input.days ?? 1825, root.notAfter),
  });
  return store(db, { kind: "INTERMEDIATE", cert, issuerSerial: root.serial, privateKey: keys.privateKey });
}

export interface ClientInput {
  participantId: number;
  /** The participant's user the certificate is for (its common name). */
  userName: string;
  email?: string;
  /** Protects the PKCS#12 file; handed to the user separately. */
  password: string;
  days?: number;
  /** The authority to sign with (default: the newest intermediate under the root in force). */
  issuerSerial?: string;
  /** Explicit validity (tests, migrations); default now .. now + days. */
  notBefore?: Date;
  notAfter?: Date;
  encryption?: Pkcs12Encryption;
  now?: Date;
}

export interface IssuedClientCertificate {
  certificate: CertificateSummary;
  /** The password-protected PKCS#12 file (key, certificate, chain). */
  pkcs12: Buffer;
  /** A suggested file name, e.g. "sever-taxi-ivan-petrov.p12". */
  fileName: string;
}

function slug(value: string): string {
  const map: Record<string, string> = { а: "a", б: "b", в: "v", г: "g", д: "d", е: "e", ё: "e", ж: "zh", з: "z", и: "i", й: "y", к: "k", л: "l", м: "m", н: "n", о: "o", п: "p", р: "r", с: "s", т: "t", у: "u", ф: "f", х: "h", ц: "ts", ч: "ch", ш: "sh", щ: "sch", ъ: "", ы: "y", ь: "", э: "e", ю: "yu", я: "ya" };
  const dashed = value
    .toLowerCase()
    .split("")
    .map((c) => map[c] ?? c)
    .join("")
    .replace(/[^a-z0-9]+/g, "-");
  return trimChar(dashed, "-").slice(0, 60) || "certificate";
}

/** The chain above an authority, upwards to (and with) its root. */
async function chainAbove(db: DbOrTx, authority: Authority): Promise<Certificate[]> {
  const chain: Certificate[] = [authority.certificate];
  let next = authority.issuerSerial;
  for (let depth = 0; next && depth < 5; depth++) {
    const row = await db.issuedCertificate.findUnique({ where: { serial: next }, select: { certPem: true, issuerSerial: true } });
    if (!row) break;
    chain.push(certificateFromPem(row.certPem));
    next = row.issuerSerial;
  }
  return chain;
}

export async function issueParticipantCertificate(db: DbOrTx, input: ClientInput): Promise<IssuedClientCertificate> {
  const now = input.now ?? new Date();
  const userName = requireName(input.userName, "user name");
  if (typeof input.password !== "string" || input.password.length < MIN_PASSWORD_LENGTH) {
    throw certificateError("BAD_PARAMETER", `the file's password must have at least ${MIN_PASSWORD_LENGTH} characters`, { parameter: "password" });
  }
  const email = input.email?.trim() || undefined;
  if (email && !/^[^\s@]+@[^\s@]+$/.test(email)) throw certificateError("BAD_PARAMETER", "the e-mail address is not valid", { parameter: "email" });
  const participant = await db.exchangeParticipant.findUnique({ where: { id: input.participantId }, select: { id: true, name: true } });
  if (!participant) throw certificateError("NOT_FOUND", `no exchange participant ${input.participantId}`, { participantId: input.participantId });

  const issuerSerial = input.issuerSerial ?? (await activeIntermediate(db, now))?.serial;
  if (!issuerSerial) throw certificateError("CONFLICT", "there is no intermediate authority under the root in force: create one first");
  const issuer = await loadAuthority(db, issuerSerial, now);

  const keys = generateKeyPair(CLIENT_KEY_BITS);
  const span = validity(now, input.days ?? 365, issuer.notAfter);
  const cert = buildCertificate({
    profile: "client",
    subject: {
      commonName: userName,
      organization: participant.name.slice(0, 64),
      organizationalUnit: `Exchange participant ${participant.id}`,
      ...(email ? { email } : {}),
    },
    publicKey: keys.publicKey,
    issuer: { certificate: issuer.certificate, privateKey: issuer.privateKey },
    notBefore: input.notBefore ?? span.notBefore,
    notAfter: input.notAfter ?? span.notAfter,
  });
  const certificate = await store(db, { kind: "CLIENT", cert, issuerSerial: issuer.serial, participantId: participant.id });
  const pkcs12 = toPkcs12({
    privateKey: keys.privateKey,
    certificate: cert,
    chain: await chainAbove(db, issuer),
    password: input.password,
    friendlyName: `${participant.name}: ${userName}`,
    ...(input.encryption ? { encryption: input.encryption } : {}),
  });
  return { certificate, pkcs12, fileName: `${slug(participant.name)}-${slug(userName)}.p12` };
}

export interface ListInput {
  kind?: CertificateKind;
  participantId?: number;
  /** Only these statuses (default: all). */
  status?: CertificateStatus[];
  now?: Date;
}

export async function listCertificates(db: DbOrTx, input: ListInput = {}): Promise<CertificateSummary[]> {
  const now = input.now ?? new Date();
  const rows = await db.issuedCertificate.findMany({
    where: { ...(input.kind ? { kind: input.kind } : {}), ...(input.participantId !== undefined ? { participantId: input.participantId } : {}) },
    orderBy: [{ id: "desc" }],
    select: SUMMARY_SELECT,
  });
  const all = rows.map((row) => summarize(row, now));
  return input.status ? all.filter((c) => input.status?.includes(c.status)) : all;
}

export async function getCertificate(db: DbOrTx, serial: string): Promise<CertificateSummary & { pem: string }> {
  const row = await db.issuedCertificate.findUnique({ where: { serial: normalizeSerial(serial) }, select: SUMMARY_SELECT });
  if (!row) throw certificateError("NOT_FOUND", `no certificate with serial ${serial}`, { serial });
  return { ...summarize(row), pem: row.certPem };
}

/**
 * Revokes a certificate by serial. Revoking an authority ends every
 * certificate under it (the panel checks each certificate of the chain).
 * Revoking again changes nothing.
 */
export async function revokeCertificate(db: DbOrTx, serial: string, now = new Date()): Promise<CertificateSummary> {
  const key = normalizeSerial(serial);
  const row = await db.issuedCertificate.findUnique({ where: { serial: key }, select: { id: true, revokedAt: true } });
  if (!row) throw certificateError("NOT_FOUND", `no certificate with serial ${serial}`, { serial });
  if (!row.revokedAt) await db.issuedCertificate.updateMany({ where: { id: row.id, revokedAt: null }, data: { revokedAt: now } });
  const { pem: _pem, ...summary } = await getCertificate(db, key);
  return summary;
}

export interface ServerCertificate {
  /** The server's certificate followed by its issuer (for TLS_CERT). */
  certPem: string;
  keyPem: string;
  rootPem: string;
  notAfter: Date;
}

/**
 * A TLS server certificate signed by the root in force, for the generated
 * development set (TLS_DEV). Not recorded in IssuedCertificate: it opens
 * nothing (no client authentication).
 */
export async function issueServerCertificate(db: DbOrTx, input: { hosts: string[]; days?: number; now?: Date }): Promise<ServerCertificate> {
  const now = input.now ?? new Date();
  const rootRow = await activeRoot(db, now);
  if (!rootRow) throw certificateError("CONFLICT", "there is no root authority yet: create the root first");
  const root = await loadAuthority(db, rootRow.serial, now);
  const keys = generateKeyPair(2048);
  const hosts = [...new Set(input.hosts.map((h) => h.trim()).filter(Boolean))];
  const cert = buildCertificate({
    profile: "server",
    subject: { commonName: hosts[0] ?? "localhost", organization: nameField(root.certificate, "O") || DEFAULT_ORGANIZATION },
    publicKey: keys.publicKey,
    issuer: { certificate: root.certificate, privateKey: root.privateKey },
    hosts,
    ...validity(now, input.days ?? 397, root.notAfter),
  });
  const rootPem = certificateToPem(root.certificate);
  return { certPem: certificateToPem(cert) + rootPem, keyPem: privateKeyToPem(keys.privateKey), rootPem, notAfter: cert.validity.notAfter };
}
