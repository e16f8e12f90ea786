// The generated development TLS set (TLS_DEV=yes): the authorities in the
// database when there are none yet ("development" in their names), and a
// server certificate for this machine signed by the root, kept in
// DATA_DIR/tls and renewed when it is near its end or the root changed.
//   DATA_DIR/tls/server-cert.pem   the server's certificate and the root
//   DATA_DIR/tls/server-key.pem    its key (mode 600)
//   DATA_DIR/tls/root-ca.pem       the root: trust it in a browser or curl --cacert
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import type { DbOrTx } from "../db";
import { log } from "../log";
import { activeIntermediate, activeRoot, createIntermediateAuthority, createRootAuthority, issueServerCertificate } from "./authority";
import { certificateFromPem, certificatesFromPemBundle, signedBy } from "./x509";

export interface TlsFiles {
  certFile: string;
  keyFile: string;
  rootFile: string;
}

const RENEW_BEFORE_MS = 30 * 24 * 3600 * 1000;

export function developmentTlsFiles(dataDir: string): TlsFiles {
  const dir = path.resolve(dataDir, "tls");
  return { certFile: path.join(dir, "server-cert.pem"), keyFile: path.join(dir, "server-key.pem"), rootFile: path.join(dir, "root-ca.pem") };
}

function reusable(files: TlsFiles, rootPem: string, hosts: string[], now: Date): boolean {
  if (!existsSync(files.certFile) || !existsSync(files.keyFile)) return false;
  try {
    const [cert] = certificatesFromPemBundle(readFileSync(files.certFile, "utf8"));
    if (!cert || !signedBy(cert, certificateFromPem(rootPem))) return false;
    if (cert.validity.notAfter.getTime() - now.getTime() < RENEW_BEFORE_MS) return false;
    const san = cert.getExtension("subjectAltName") as { altNames?: Array<{ value?: string; ip?: string }> } | null;
    const names = new Set((san?.altNames ?? []).flatMap((n) => [n.value, n.ip]).filter(Boolean));
    return hosts.every((h) => names.has(h));
  } catch {
    return false;
  }
}

/** Makes sure the development set exists; returns where its files are. */
export async function ensureDevelopmentTls(db: DbOrTx, input: { dataDir: string; hosts?: string[]; now?: Date }): Promise<TlsFiles> {
  const now = input.now ?? new Date();
  if (!(await activeRoot(db, now))) {
    const root = await createRootAuthority(db, { commonName: "Taxi Exchange Development Root CA", now });
    log.info("development root authority created", { serial: root.serial });
  }
  if (!(await activeIntermediate(db, now))) {
    const intermediate = await createIntermediateAuthority(db, { commonName: "Taxi Exchange Participants CA (development)", now });
    log.info("development intermediate authority created", { serial: intermediate.serial });
  }
  const root = await activeRoot(db, now);
  if (!root) throw new Error("the development root authority is missing");
  const files = developmentTlsFiles(input.dataDir);
  const hosts = [...new Set(["localhost", "127.0.0.1", "::1", hostname(), ...(input.hosts ?? [])].filter(Boolean))];
  if (!reusable(files, root.certPem, hosts, now)) {
    const issued = await issueServerCertificate(db, { hosts, now });
    mkdirSync(path.dirname(files.certFile), { recursive: true });
    writeFileSync(files.keyFile, issued.keyPem, { mode: 0o600 });
    writeFileSync(files.certFile, issued.certPem);
    log.info("development TLS certificate written", { file: files.certFile, hosts });
  }
  writeFileSync(files.rootFile, root.certPem);
  return files;
}
