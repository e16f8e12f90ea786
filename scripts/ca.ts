// `npm run ca -- <command>`: the exchange operator's certificate authority
// for the participants' control panel (docs/panel.md). Works on the database
// chosen by configuration (DATABASE_URL, or the embedded PGlite in DATA_DIR:
// then with the server stopped, one process at a time) and needs the same
// APP_SECRET as the server (the authorities' keys are sealed with it).
import { randomInt } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { ensureAppSecret } from "../server/auth/secret";
import { ConfigError } from "../server/config";
import { closeDb, db, withSession } from "../server/db";
import { migrate } from "../server/db/migrate";
import { isDomainError } from "../server/errors";
import {
  createIntermediateAuthority,
  createRootAuthority,
  getCertificate,
  issueParticipantCertificate,
  listCertificates,
  revokeCertificate,
  MIN_PASSWORD_LENGTH,
  type CertificateSummary,
} from "../server/certificates";
import type { CertificateKind } from "../server/generated/prisma/enums";

const USAGE = `Certificate authority of the participants' control panel.

  npm run ca -- create-root --name NAME [--org ORG] [--days 3650] [--replace]
      the root authority (the one the panel trusts); --replace retires the
      root in force, which ends every certificate issued under it
  npm run ca -- create-intermediate --name NAME [--days 1825]
      an intermediate authority under the root; client certificates come from
      the newest one
  npm run ca -- issue --participant ID --user NAME [--email E] [--days 365]
                      [--out FILE.p12] [--password P | --password-file F]
                      [--legacy-3des]
      a participant user's certificate as a password-protected PKCS#12 file
      (key, certificate and chain); without a password one is generated and
      printed once. Encrypted with AES-256 (PBKDF2-HMAC-SHA256);
      --legacy-3des: 3DES with the SHA-1 KDF, for macOS before 10.15 only
  npm run ca -- list [--participant ID] [--kind root|intermediate|client] [--active]
  npm run ca -- revoke SERIAL
      the panel refuses it at once (an authority: everything under it)
  npm run ca -- show SERIAL          the certificate in PEM
  npm run ca -- export-root [--out FILE]
      the root in force in PEM (for TLS_CLIENT_CA, or to trust the
      development server certificate)
  npm run ca -- participants         the exchange participants and their ids`;

class UsageError extends Error {}

function option(values: Record<string, string | boolean | undefined>, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = option(values, name);
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

function integer(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}

function day(date: Date | null): string {
  return date ? date.toISOString().slice(0, 10) : "";
}

function printTable(rows: CertificateSummary[]): void {
  if (rows.length === 0) {
    console.log("No certificates.");
    return;
  }
  const lines = rows.map((c) => [
    c.kind.toLowerCase(),
    c.serial,
    c.status + (c.revokedAt ? ` ${day(c.revokedAt)}` : ""),
    `${day(c.notBefore)}..${day(c.notAfter)}`,
    c.participantId !== null ? `#${c.participantId} ${c.participantName ?? ""}` : "",
    c.subject,
  ]);
  const head = ["KIND", "SERIAL", "STATUS", "VALIDITY", "PARTICIPANT", "SUBJECT"];
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? "").length)));
  for (const line of [head, ...lines]) console.log(line.map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  "));
}

function describe(c: CertificateSummary): void {
  console.log(`  subject:     ${c.subject}`);
  console.log(`  serial:      ${c.serial}`);
  console.log(`  valid:       ${c.notBefore.toISOString()} .. ${c.notAfter.toISOString()}`);
  console.log(`  SHA-256:     ${c.fingerprint}`);
}

function generatedPassword(): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const groups = Array.from({ length: 4 }, () => Array.from({ length: 4 }, () => alphabet[randomInt(alphabet.length)]).join(""));
  return groups.join("-");
}

async function run(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help" || command === "-h") {
    console.log(USAGE);
    return;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: {
      name: { type: "string" },
      org: { type: "string" },
      days: { type: "string" },
      replace: { type: "boolean" },
      participant: { type: "string" },
      user: { type: "string" },
      email: { type: "string" },
      out: { type: "string" },
      password: { type: "string" },
      "password-file": { type: "string" },
      "legacy-3des": { type: "boolean" },
      kind: { type: "string" },
      active: { type: "boolean" },
    },
  });

  ensureAppSecret();
  await withSession((session) => migrate(session));
  const database = db();

  switch (command) {
    case "create-root": {
      const root = await createRootAuthority(database, {
        commonName: required(values, "name"),
        ...(option(values, "org") ? { organization: option(values, "org") } : {}),
        ...(values.days ? { days: integer(option(values, "days"), "days") } : {}),
        replace: values.replace === true,
      });
      console.log("Root authority created:");
      describe(root);
      console.log("Next: npm run ca -- create-intermediate --name \"...\"");
      return;
    }
    case "create-intermediate": {
      const intermediate = await createIntermediateAuthority(database, {
        commonName: required(values, "name"),
        ...(option(values, "org") ? { organization: option(values, "org") } : {}),
        ...(values.days ? { days: integer(option(values, "days"), "days") } : {}),
      });
      console.log("Intermediate authority created:");
      describe(intermediate);
      return;
    }
    case "issue": {
      const participantId = integer(required(values, "participant"), "participant") ?? 0;
      const passwordFile = option(values, "password-file");
      let password = option(values, "password") ?? (passwordFile ? readFileSync(passwordFile, "utf8").trim() : undefined) ?? process.env.CA_PASSWORD;
      const generated = !password;
      password ??= generatedPassword();
      if (password.length < MIN_PASSWORD_LENGTH) throw new UsageError(`the password must have at least ${MIN_PASSWORD_LENGTH} characters`);
      const issued = await issueParticipantCertificate(database, {
        participantId,
        userName: required(values, "user"),
        ...(option(values, "email") ? { email: option(values, "email") } : {}),
        ...(values.days ? { days: integer(option(values, "days"), "days") } : {}),
        password,
        ...(values["legacy-3des"] ? { encryption: "3des" as const } : {}),
      });
      const out = path.resolve(option(values, "out") ?? issued.fileName);
      writeFileSync(out, issued.pkcs12, { mode: 0o600 });
      console.log(`Certificate issued to ${issued.certificate.subject}`);
      describe(issued.certificate);
      console.log(`  file:        ${out}`);
      if (generated) console.log(`  password:    ${password}   (shown once; give it to the user separately from the file)`);
      return;
    }
    case "list": {
      const kind = option(values, "kind")?.toUpperCase();
      if (kind && !["ROOT", "INTERMEDIATE", "CLIENT"].includes(kind)) throw new UsageError("--kind is root, intermediate or client");
      const participant = integer(option(values, "participant"), "participant");
      printTable(
        await listCertificates(database, {
          ...(kind ? { kind: kind as CertificateKind } : {}),
          ...(participant !== undefined ? { participantId: participant } : {}),
          ...(values.active ? { status: ["active" as const] } : {}),
        }),
      );
      return;
    }
    case "revoke": {
      const serial = positionals[0];
      if (!serial) throw new UsageError("revoke needs the certificate's serial (see `npm run ca -- list`)");
      const revoked = await revokeCertificate(database, serial);
      console.log(`Revoked ${revoked.kind.toLowerCase()} ${revoked.subject} (serial ${revoked.serial}) on ${revoked.revokedAt?.toISOString()}`);
      return;
    }
    case "show": {
      const serial = positionals[0];
      if (!serial) throw new UsageError("show needs the certificate's serial");
      process.stdout.write((await getCertificate(database, serial)).pem);
      return;
    }
    case "export-root": {
      const [root] = await listCertificates(database, { kind: "ROOT", status: ["active"] });
      if (!root) throw new UsageError("there is no root authority in force: npm run ca -- create-root --name ...");
      const { pem } = await getCertificate(database, root.serial);
      const out = option(values, "out");
      if (out) {
        writeFileSync(out, pem);
        console.log(`Root ${root.subject} written to ${path.resolve(out)}`);
      } else process.stdout.write(pem);
      return;
    }
    case "participants": {
      const rows = await database.exchangeParticipant.findMany({ orderBy: { id: "asc" }, select: { id: true, name: true, disabled: true, _count: { select: { certificates: true } } } });
      if (rows.length === 0) console.log("No exchange participants.");
      for (const p of rows) console.log(`${String(p.id).padStart(4)}  ${p.name}${p.disabled ? "  (disabled)" : ""}  certificates: ${p._count.certificates}`);
      return;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

run(process.argv.slice(2))
  .then(() => closeDb())
  .catch(async (error: unknown) => {
    await closeDb().catch(() => undefined);
    if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
    else if (error instanceof ConfigError) console.error(error.message);
    else if (isDomainError(error)) console.error(error.message);
    else if (error instanceof Error && "code" in error && String((error as { code: unknown }).code).startsWith("ERR_PARSE_ARGS")) console.error(`${error.message}\n\n${USAGE}`);
    else console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
