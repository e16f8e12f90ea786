// The fleet benchmark's consoles (fleet.ts): N dispatchers' consoles watching
// the live map (each a live.events SSE stream, as the console's LiveProvider
// opens it) while the positions run. Counted per console: the messages of
// the drivers' coalesced changes (server/events/driver-moves.ts), the cars
// they carried, the bytes received, and the resyncs (a console that fell
// behind is told to reload).
import { signInApi, trpc, type Session } from "../../e2e/support/console-api";

export interface ConsoleWatch {
  consoles: number;
  seconds: number;
  /** Messages of the drivers' changes a console received a second (mean over the consoles). */
  messagesPerSecond: number;
  /** Cars a message carried (mean). */
  carsPerMessage: number;
  /** Cars a console was told of a second (mean). */
  carsPerSecond: number;
  kbPerSecond: number;
  resyncs: number;
}

interface Counter {
  messages: number;
  cars: number;
  bytes: number;
  resyncs: number;
}

function rowsOf(value: unknown): unknown[] | undefined {
  if (!value || typeof value !== "object") return undefined;
  const v = value as Record<string, unknown>;
  // The rows as JSON text (server/events/console-batch.ts), parsed as the console's page does.
  if (v.type === "drivers.changed" && typeof v.rowsJson === "string") {
    const rows: unknown = JSON.parse(v.rowsJson);
    return Array.isArray(rows) ? rows : undefined;
  }
  for (const inner of Object.values(v)) {
    const found = rowsOf(inner);
    if (found) return found;
  }
  return undefined;
}

/** The consoles' dispatchers, signed in (before the load: sign-in and user creation are refused while the instance sheds load). */
export async function consoleSessions(url: string, admin: { email: string; password: string }, n: number): Promise<Session[]> {
  const admin_ = await signInApi(url, admin.email, admin.password);
  const sessions: Session[] = [];
  for (let u = 0; u < Math.ceil(n / PER_OPERATOR); u++) {
    const email = `fleet-dispatcher${u}-${Date.now()}@bench.local`;
    const made = await trpc(url, admin_, "admin.users.create", { email, name: `Dispatcher ${u}`, password: "bench-password-1", roles: ["DISPATCHER"] }, "mutation");
    if (made.error) throw new Error(`admin.users.create: ${made.error.message}`);
    sessions.push(await signInApi(url, email, "bench-password-1"));
  }
  return sessions;
}

// An operator may hold 8 live streams (shared/trpc-limits.ts): the consoles are spread over dispatchers.
const PER_OPERATOR = 8;

/** Opens the consoles' live streams (retried while the instance sheds load); `start` counts from then on; `close` ends them. */
export async function openConsoles(url: string, sessions: Session[], n: number) {
  const controller = new AbortController();
  const counters: Counter[] = Array.from({ length: n }, () => ({ messages: 0, cars: 0, bytes: 0, resyncs: 0 }));
  let opened = 0;
  await Promise.all(
    counters.map(async (c, i) => {
      let res = await fetch(`${url}/api/trpc/live.events`, { headers: { cookie: sessions[Math.floor(i / PER_OPERATOR)]!.cookie, accept: "text/event-stream" }, signal: controller.signal });
      for (let k = 0; k < 30 && (res.status === 429 || res.status === 503); k++) {
        await new Promise((r) => setTimeout(r, 1_000));
        res = await fetch(`${url}/api/trpc/live.events`, { headers: { cookie: sessions[Math.floor(i / PER_OPERATOR)]!.cookie, accept: "text/event-stream" }, signal: controller.signal });
      }
      if (!res.ok || !res.body) throw new Error(`live.events ${res.status}`);
      opened++;
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      void (async () => {
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            c.bytes += value.byteLength;
            buffer += decoder.decode(value, { stream: true });
            let nl: number;
            while ((nl = buffer.indexOf("\n")) !== -1) {
              const line = buffer.slice(0, nl);
              buffer = buffer.slice(nl + 1);
              if (!line.startsWith("data:")) continue;
              if (line.includes('"resync"')) c.resyncs++;
              // One message per car (the console before the coalescing), or a batch of them.
              if (line.includes('"driver.changed"')) {
                c.messages++;
                c.cars++;
                continue;
              }
              if (!line.includes('"drivers.changed"')) continue;
              const rows = rowsOf(JSON.parse(line.slice(5)));
              c.messages++;
              c.cars += rows?.length ?? 0;
            }
          }
        } catch {
          // aborted
        }
      })();
    }),
  );
  let from = { at: performance.now(), snapshot: counters.map((c) => ({ ...c })) };
  return {
    opened: () => opened,
    /** Counts from now. */
    start() {
      from = { at: performance.now(), snapshot: counters.map((c) => ({ ...c })) };
    },
    stats(): ConsoleWatch {
      const seconds = (performance.now() - from.at) / 1000;
      const d = counters.map((c, i) => {
        const s = from.snapshot[i]!;
        return { messages: c.messages - s.messages, cars: c.cars - s.cars, bytes: c.bytes - s.bytes, resyncs: c.resyncs - s.resyncs };
      });
      const sum = (f: (x: Counter) => number) => d.reduce((a, x) => a + f(x), 0);
      const round = (x: number, k = 1) => Math.round(x * k) / k;
      return {
        consoles: n,
        seconds: round(seconds),
        messagesPerSecond: round(sum((x) => x.messages) / n / seconds, 100),
        carsPerMessage: round(sum((x) => x.cars) / Math.max(1, sum((x) => x.messages))),
        carsPerSecond: round(sum((x) => x.cars) / n / seconds),
        kbPerSecond: round(sum((x) => x.bytes) / 1024 / n / seconds, 10),
        resyncs: sum((x) => x.resyncs),
      };
    },
    close: () => controller.abort(),
  };
}
