// One owner for an embedded database's folder (docs/operations.md, "Faults").
//
// PGlite keeps its database in memory and writes it back to DATA_DIR: two
// processes on one folder both serve, and the one that stops last writes its
// stale view over the other's acknowledged writes. So before PGlite opens,
// the process takes DATA_DIR/pglite.lock, created exclusively (O_EXCL) and
// holding who took it: pid, host, process start, when and what. A second
// process finds it and refuses to start, naming the holder.
//
// A lock left by a process that died (kill -9, a crash, a power cut) is
// stale: the holder's pid no longer runs on this host, or runs but started
// at another time (a reused pid). It is broken at once, so a restart after a
// crash is never held up. (Our own file rather than proper-lockfile: its
// locks go stale by age, so a restart right after a kill -9 would be refused
// for the stale period, and they do not say who holds them.) A lock taken on
// another host (a shared network folder) is never broken by guess: the
// message says which host holds it and that the file may be removed once
// that process is known to be gone.
import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";

export interface LockHolder {
  pid: number;
  host: string;
  /** When it took the lock (ISO 8601). */
  since: string;
  /** Start time of the holder's process (clock ticks since boot, /proc/<pid>/stat); tells a reused pid. */
  processStart?: string;
  command: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(
      holder
        ? `The data folder ${path.dirname(lockFile)} is in use by process ${holder.pid} on ${holder.host} (${holder.command}) since ${holder.since}. ` +
            `Stop that process first, or give this one another DATA_DIR.` +
            (holder.host === hostname() ? "" : ` The holder runs on another host; if it is gone, remove ${lockFile}.`)
        : `The data folder ${path.dirname(lockFile)} is locked (${lockFile} cannot be read); if no process uses it, remove that file.`,
    );
    this.name = "DataDirLockedError";
  }
}

export interface DataDirLock {
  file: string;
  release: () => void;
}

function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command may hold spaces and parentheses: the fields follow its last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether the holder's process is gone (only decidable on this host). */
export function holderIsGone(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return false;
  if (!Number.isInteger(holder.pid) || holder.pid <= 0) return true;
  if (!running(holder.pid)) return true;
  const start = processStart(holder.pid);
  return Boolean(holder.processStart && start && start !== holder.processStart);
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, "utf8")) as LockHolder;
    return typeof holder.pid === "number" && typeof holder.host === "string" ? holder : undefined;
  } catch {
    return undefined;
  }
}

function me(): LockHolder {
  return {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    processStart: processStart(process.pid),
    command: process.argv.slice(1).map((arg) => path.basename(arg)).join(" ").slice(0, 200) || "node",
  };
}

function isMine(holder: LockHolder | undefined): boolean {
  return holder?.pid === process.pid && holder.host === hostname() && holder.processStart === processStart(process.pid);
}

/**
 * Moves a stale lock aside. Another process may have broken it and taken the
 * folder meanwhile: then what was moved is its live lock, and it goes back.
 */
function breakStale(file: string, seen: string): void {
  const aside = `${file}.stale-${process.pid}`;
  try {
    renameSync(file, aside);
  } catch {
    return; // gone already
  }
  let moved = "";
  try {
    moved = readFileSync(aside, "utf8");
  } catch {
    // unreadable: treat it as the stale one
  }
  if (moved !== seen && moved !== "") {
    try {
      linkSync(aside, file);
    } catch {
      // someone else holds it now; the next attempt sees them
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // already removed
  }
}

/** Takes the folder's lock or throws DataDirLockedError naming the holder. */
export function lockDataDir(dataDir: string): DataDirLock {
  const file = path.join(dataDir, "pglite.lock");
  const holder = me();
  for (let attempt = 0; attempt < 5; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, "wx", 0o644);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      let seen = "";
      try {
        seen = readFileSync(file, "utf8");
      } catch {
        continue; // removed meanwhile: try again
      }
      const current = readHolder(file);
      // The same process opening the folder again (after closeDb): still its own.
      if (isMine(current)) return { file, release: () => releaseLock(file) };
      if (current && holderIsGone(current)) {
        breakStale(file, seen);
        continue;
      }
      // A lock file being written this instant reads empty: give its writer a moment.
      if (!current && seen === "" && attempt < 4) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
        continue;
      }
      throw new DataDirLockedError(file, current);
    }
    try {
      writeSync(fd, JSON.stringify(holder) + "\n");
    } finally {
      closeSync(fd);
    }
    const release = () => releaseLock(file);
    process.once("exit", release);
    return { file, release };
  }
  throw new DataDirLockedError(file, readHolder(file));
}

/** Removes the lock if it is this process's. */
function releaseLock(file: string): void {
  if (!isMine(readHolder(file))) return;
  try {
    unlinkSync(file);
  } catch {
    // gone already
  }
}
