// Database failures that the health check reports (docs/operations.md,
// "Faults"): with the disk full every write fails while reads, and a plain
// SELECT 1, still succeed, so /healthz must hear of the writes' failures.
// Every unexpected error reaches the error logger (server/log.ts), which
// hands it here.

/** How long a disk-full failure keeps /healthz at 503 after the last one seen. */
export const DISK_FULL_REPORT_MS = 30_000;

let lastDiskFullAt = 0;

const DISK_FULL = /could not extend file|no space left on device|ENOSPC|disk full|could not write to file/i;

/** Whether the error (or one of its causes) says the database's disk is full: PostgreSQL's 53100, ENOSPC from PGlite's files. */
export function isDiskFull(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 4) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; meta?: unknown };
  if (e.code === "53100" || e.code === "ENOSPC") return true;
  if (typeof e.message === "string" && DISK_FULL.test(e.message)) return true;
  return isDiskFull(e.cause, depth + 1) || isDiskFull(e.meta, depth + 1);
}

/** Notes an unexpected error; true when it was a disk-full failure. */
export function noteFailure(error: unknown, now = Date.now()): boolean {
  if (!isDiskFull(error)) return false;
  lastDiskFullAt = now;
  return true;
}

/** Whether writes failed for want of disk space recently. */
export function diskFullRecently(now = Date.now()): boolean {
  return lastDiskFullAt > 0 && now - lastDiskFullAt < DISK_FULL_REPORT_MS;
}
