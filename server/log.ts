// A small structured logger. Never pass secrets to it: keys, tokens and
// passwords are redacted by name as a second line of defence.
//
// Errors are logged once per incident (docs/operations.md, "Faults"): during
// a database outage every request fails the same way, and a stack per
// request buried the log (1,263 lines in a 20 s outage). The first error of
// a kind (its message and the error's name and text, numbers aside) is
// written with its stack; the same kind again within INCIDENT_MS is only
// counted, and the count is written when the incident ends ("repeated N
// times"). Every unexpected error is also shown to the health check
// (server/db/failures.ts: a full disk).
import { config } from "./config";
import { noteFailure } from "./db/failures";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof LEVELS;
const SECRET_NAMES = /key|token|password|secret|authorization|cookie/i;

function redact(value: unknown): unknown {
  if (value instanceof Error) return { error: value.name, message: value.message, stack: value.stack };
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, SECRET_NAMES.test(k) ? "[redacted]" : v]),
  );
}

function write(level: Level, message: string, extra?: unknown): void {
  let threshold: Level = "info";
  try {
    threshold = config().LOG_LEVEL;
  } catch {
    // configuration not loaded yet: keep the default
  }
  if (LEVELS[level] < LEVELS[threshold]) return;
  const line = JSON.stringify({ t: new Date().toISOString(), level, message, ...(extra === undefined ? {} : { extra: redact(extra) }) });
  if (level === "error" || level === "warn") process.stderr.write(line + "\n");
  else process.stdout.write(line + "\n");
}

const INCIDENT_MS = 60_000;
interface Incident {
  level: Level;
  message: string;
  error: string;
  startedAt: number;
  lastAt: number;
  repeated: number;
}
const incidents = new Map<string, Incident>();
let sweeper: NodeJS.Timeout | undefined;

function errorOf(extra: unknown): Error | undefined {
  if (extra instanceof Error) return extra;
  if (extra && typeof extra === "object" && (extra as { error?: unknown }).error instanceof Error) return (extra as { error: Error }).error;
  return undefined;
}

/** Writes the counts of incidents that ended (no repeat within INCIDENT_MS). */
function sweep(now = Date.now(), all = false): void {
  for (const [key, incident] of incidents) {
    if (!all && now - incident.lastAt < INCIDENT_MS) continue;
    incidents.delete(key);
    if (incident.repeated > 0) {
      write(incident.level, `${incident.message} (repeated)`, { error: incident.error, repeated: incident.repeated, seconds: Math.round((incident.lastAt - incident.startedAt) / 1000) });
    }
  }
  if (!incidents.size && sweeper) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

/** false when this error repeats an incident already logged (it is counted instead). */
function firstOfIncident(level: Level, message: string, error: Error, now = Date.now()): boolean {
  const text = `${error.name}: ${error.message}`.replace(/\d+/g, "#").slice(0, 300);
  const key = `${level}|${message}|${text}`;
  const incident = incidents.get(key);
  if (incident && now - incident.lastAt < INCIDENT_MS) {
    incident.lastAt = now;
    incident.repeated += 1;
    return false;
  }
  if (incident) sweep(now);
  incidents.set(key, { level, message, error: text, startedAt: now, lastAt: now, repeated: 0 });
  sweeper ??= setInterval(() => sweep(), 5_000).unref();
  return true;
}

function writeError(level: Level, message: string, extra?: unknown): void {
  const error = errorOf(extra);
  if (!error) return write(level, message, extra);
  noteFailure(error);
  if (firstOfIncident(level, message, error)) write(level, message, extra);
}

export const log = {
  debug: (message: string, extra?: unknown) => write("debug", message, extra),
  info: (message: string, extra?: unknown) => write("info", message, extra),
  warn: (message: string, extra?: unknown) => writeError("warn", message, extra),
  error: (message: string, extra?: unknown) => writeError("error", message, extra),
  /** Writes the counts of incidents still open (before the process exits). */
  flush: () => sweep(Date.now(), true),
};
