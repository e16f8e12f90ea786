// Times as the dispatch API writes them: `%Y-%m-%d %H:%M:%S` in the city's
// time zone (or in UTC where the parameter says so).
function parts(at: Date, timeZone: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at)) {
    if (part.type !== "literal") out[part.type] = Number(part.value);
  }
  return out;
}

const pad = (n: number | undefined, width = 2) => String(n ?? 0).padStart(width, "0");

export function formatLocal(at: Date, timeZone: string): string {
  const p = parts(at, timeZone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

function offsetMs(at: Date, timeZone: string): number {
  const p = parts(at, timeZone);
  const asUtc = Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** "YYYY-MM-DD HH:MM[:SS]" read as a wall-clock time in `timeZone` (or "UTC"). */
export function parseLocal(text: string, timeZone: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  const guess = Date.UTC(y!, mo! - 1, d, h, mi, s ?? 0);
  if (Number.isNaN(guess)) return undefined;
  if (timeZone === "UTC") return new Date(guess);
  const first = guess - offsetMs(new Date(guess), timeZone);
  return new Date(guess - offsetMs(new Date(first), timeZone));
}

/**
 * The `time` parameter of creation (1.4.4, before pre_order_time): a full
 * "YYYY-MM-DD HH:MM[:SS]", or only "HH:MM[:SS]", the next such wall-clock
 * time in the city (today, or tomorrow when it has passed).
 */
export function parseOrderTime(text: string, timeZone: string, now = new Date()): Date | undefined {
  const full = parseLocal(text, timeZone);
  if (full) return full;
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59) return undefined;
  const today = formatLocal(now, timeZone).slice(0, 10);
  const clock = `${m[1]!.padStart(2, "0")}:${m[2]}:${m[3] ?? "00"}`;
  const at = parseLocal(`${today} ${clock}`, timeZone);
  if (!at || at.getTime() > now.getTime()) return at;
  const tomorrow = formatLocal(new Date(at.getTime() + 36 * 3_600_000), timeZone).slice(0, 10);
  return parseLocal(`${tomorrow} ${clock}`, timeZone);
}
