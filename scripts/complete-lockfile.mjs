// The npm registry these machines reach lacks some platform builds of
// optional dependencies (e.g. @next/swc-darwin-arm64), so `npm install`
// leaves them out of package-lock.json and `npm ci` then refuses the lock.
// This adds them back as optional, platform-bound entries (npm skips them on
// other platforms without fetching). Run after changing dependencies:
//   node scripts/complete-lockfile.mjs
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const OS = ["darwin", "win32", "linux", "android", "freebsd", "openbsd", "openharmony", "sunos", "aix"];
const CPU = ["arm64", "x64", "ia32", "arm", "loong64", "ppc64", "riscv64", "s390x"];

function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p)) ?? (parts.includes("eabi") || parts.includes("gnueabihf") || parts.includes("musleabihf") ? "arm" : undefined);
  const libc = parts.some((p) => p === "musl" || p === "musleabihf") ? "musl" : parts.some((p) => p === "gnu" || p === "gnueabihf") ? "glibc" : undefined;
  return { os, cpu, libc };
}

let output = "";
try {
  output = execFileSync("npm", ["ci", "--dry-run", "--ignore-scripts", "--no-audit", "--no-fund"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
} catch (error) {
  output = `${error.stdout ?? ""}${error.stderr ?? ""}`;
}
const missing = [...output.matchAll(/Missing: (@?[^@\s]+)@(\S*) from lock file/g)].map((m) => m[1]);
if (missing.length === 0) {
  console.log("package-lock.json is complete.");
  process.exit(0);
}
const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
const unverified = [];

function registryDist(name, version) {
  try {
    const out = execFileSync("npm", ["view", `${name}@${version}`, "dist", "--json"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    const dist = JSON.parse(out);
    return typeof dist?.integrity === "string" && typeof dist?.tarball === "string" ? { integrity: dist.integrity, tarball: dist.tarball } : undefined;
  } catch {
    return undefined;
  }
}
for (const name of missing) {
  // the version the parent asks for
  let version;
  for (const [path, entry] of Object.entries(lock.packages)) {
    const wanted = entry.optionalDependencies?.[name];
    if (wanted && path !== "") version = wanted.replace(/^[\^~]/, "");
  }
  const { os, cpu, libc } = platformOf(name);
  if (!version || !os || !cpu) {
    console.error(`cannot complete ${name}`);
    process.exitCode = 1;
    continue;
  }
  // The integrity hash and tarball from the registry's metadata when it has
  // them, so that npm verifies what it downloads on that platform. The
  // registry these machines reach lacks some builds altogether; those entries
  // stay without a hash (npm then trusts the registry it installs from) and
  // are listed, to be completed on a machine that reaches the full registry.
  const dist = registryDist(name, version);
  if (!dist) unverified.push(`${name}@${version}`);
  lock.packages[`node_modules/${name}`] = {
    version,
    ...(dist ? { resolved: dist.tarball, integrity: dist.integrity } : {}),
    cpu: [cpu],
    license: "MIT",
    optional: true,
    os: [os],
    ...(libc ? { libc: [libc] } : {}),
  };
}
if (unverified.length) console.warn(`Without an integrity hash (not in this registry): ${unverified.join(", ")}`);
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
writeFileSync("package-lock.json", `${JSON.stringify(lock, null, 2)}\n`);
console.log(`Added ${missing.length} platform entries to package-lock.json.`);
