// A small structured logger. Never pass secrets to it: keys, tokens and
// passwords are redacted by name as a second line of defence.
import { config } from "./config";

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

export const log = {
  debug: (message: string, extra?: unknown) => write("debug", message, extra),
  info: (message: string, extra?: unknown) => write("info", message, extra),
  warn: (message: string, extra?: unknown) => write("warn", message, extra),
  error: (message: string, extra?: unknown) => write("error", message, extra),
};
