// The safety net under the offer streams, one statement for all of them. A
// stream is woken by the event bus when its driver's offer, messages or
// access change; an announcement can still be lost (a relay between
// instances reconnecting), so each stream used to read its driver's state
// again at every keep-alive: with 10,000 phones that was two statements a
// stream every 15 s, 1,300 a second, most of an instance's core
// (docs/performance.md, "A fleet of ten thousand"). Now the instance reads
// the state of the drivers with a stream open set-based: every second one
// statement for a fifteenth of the streams (so each is looked at every 15 s,
// and the app-seen writes below stay spread over time as the streams' own
// were: a write of all 10,000 drivers' rows at once held their locks against
// the position batches), and wakes only the streams whose driver's state
// differs from what the stream last sent; the others write their keep-alive
// and read nothing. The sweep also notes each driver's app as seen: an open
// stream is a live app (server/dispatch/liveness.ts).
import type { Db } from "../db";
import { sqlQuery } from "../db/sql";
import { noteAppSeen } from "../dispatch/liveness";
import { log } from "../log";

/** What a stream has sent its phone: the live offer ("none" or its id) and the newest dispatcher's message. */
export interface StreamWatch {
  driverId: number;
  /** The hash of the key the stream was opened with; undefined when the stream needs no key (a dispatcher's own view). */
  keyHash: string | undefined;
  offerKey(): string;
  lastMessage(): number;
  /** Read the driver's state again now. */
  wake(): void;
}

/**
 * The newest of dispatch's messages to the driver `driverId` names (a column of the statement): the stream's
 * own read (offers.ts) and the sweep compare the same figure with what the stream sent.
 */
export const newestDispatchMessageSql = (driverId: string) =>
  `(SELECT max(m.id) FROM driver_message m WHERE m.driver_id = ${driverId} AND m.sender = 'DISPATCHER')`;

/** How often the state of every open stream's driver is read: the keep-alive's period, as each stream did before. */
export const SWEEP_MS = 15_000;
/** A slice of the streams each tick: SWEEP_MS / TICK_MS slices make the round. */
const TICK_MS = 1_000;

interface SweepRow {
  i: number;
  holds: boolean;
  offer_id: number | null;
  last_message: number | null;
}

const SWEEP = `
  SELECT u.i::int AS i,
         coalesce(u.hash IS NULL OR (d.active AND d.app_key_hash = u.hash), false) AS holds,
         (SELECT o.id FROM dispatch_offer o WHERE o.driver_id = u.id AND o.state = 'LIVE' ORDER BY o.id DESC LIMIT 1) AS offer_id,
         ${newestDispatchMessageSql("u.id")} AS last_message
    FROM unnest($1::int[], $2::text[]) WITH ORDINALITY AS u(id, hash, i)
    LEFT JOIN driver d ON d.id = u.id`;

/** Which of the watched streams must read again: the key no longer holds, the live offer is another, or a message is newer. */
export function outOfDate(watches: readonly StreamWatch[], rows: readonly SweepRow[]): StreamWatch[] {
  const stale: StreamWatch[] = [];
  for (const row of rows) {
    const w = watches[row.i - 1];
    if (!w) continue;
    const offerKey = row.offer_id === null ? "none" : String(row.offer_id);
    if ((w.keyHash !== undefined && !row.holds) || offerKey !== w.offerKey() || (row.last_message ?? 0) > w.lastMessage()) stale.push(w);
  }
  return stale;
}

class StreamSweep {
  private readonly watches = new Set<StreamWatch>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** Where the next slice starts, in the order the streams were opened. */
  private cursor = 0;

  constructor(readonly db: Db) {}

  watch(w: StreamWatch): () => void {
    this.watches.add(w);
    this.timer ??= setInterval(() => void this.sweep(), TICK_MS).unref();
    return () => {
      this.watches.delete(w);
      if (this.watches.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }

  /** One tick: the next slice of the streams (about a fifteenth), read in one statement. */
  async sweep(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const all = [...this.watches];
      if (all.length === 0) return;
      const size = Math.ceil(all.length / (SWEEP_MS / TICK_MS));
      if (this.cursor >= all.length) this.cursor = 0;
      const part = all.slice(this.cursor, this.cursor + size);
      this.cursor += size;
      const rows = await sqlQuery<SweepRow>(this.db, SWEEP, [part.map((w) => w.driverId), part.map((w) => w.keyHash ?? null)]);
      for (const w of outOfDate(part, rows)) w.wake();
      // Batched and throttled per driver in liveness.ts: one UPDATE for many drivers, each at most every 10 s.
      await Promise.all([...new Set(part.map((w) => w.driverId))].map((id) => noteAppSeen(this.db, id)));
    } catch (error) {
      log.warn("offer streams' sweep failed; the next one tries again", error);
    } finally {
      this.running = false;
    }
  }
}

const key = Symbol.for("taxi.offerStreamSweep");
type Holder = { [key]?: StreamSweep };

/** Registers an open stream with its instance's sweep; returns the function that removes it. */
export function watchStream(db: Db, w: StreamWatch): () => void {
  const holder = globalThis as Holder;
  let sweep = holder[key];
  if (!sweep || sweep.db !== db) {
    sweep = new StreamSweep(db);
    holder[key] = sweep;
  }
  return sweep.watch(w);
}
