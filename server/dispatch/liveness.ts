// Silent drivers are not candidates (issue 30). Automatic dispatch offers
// orders only to drivers whose app is alive — a call or an open offer stream
// within DISPATCH_APP_SILENT_SECONDS — and whose position is no older than
// DISPATCH_POSITION_MAX_AGE_SECONDS. A driver who lets
// DISPATCH_AWAY_AFTER_TIMEOUTS offers in a row time out is set away (not
// offered orders) until acting again: starting a shift, answering an offer,
// taking or moving an order, joining a queue, or a position report that
// shows the car moved (a live app in a pocket keeps reporting the same spot,
// so a mere report would bring the driver straight back to time out again).
import type { Db, Tx } from "../db";
import { config } from "../config";
import { sqlQuery } from "../db/sql";
import { writeBatcher, type WriteBatcher } from "../db/write-batcher";

/** Driver app operations that are a driver's own act: they bring an away driver back. */
const ACTING_PATHS: ReadonlySet<string> = new Set([
  "shift/start",
  "offer/accept",
  "offer/refuse",
  "orders/accept",
  "orders/reject",
  "orders/status",
  "orders/complete",
  "queue/join",
  "break/end",
]);

/** Degrees of latitude (about 110 m) a car must move from where it was set away to count as acting. */
export const MOVED_DEGREES = 0.001;

/** How often at most one process writes a driver's app_seen_at (seconds); well under the silence setting. */
const SEEN_WRITE_SECONDS = 10;

// Per process: the last write of each driver's app_seen_at, so that a driver
// reporting positions every few seconds costs one UPDATE per 10 s.
const seenKey = Symbol.for("taxi.dispatchAppSeen");
type SeenHolder = { [seenKey]?: Map<number, number> };
function seenWrites(): Map<number, number> {
  const holder = globalThis as SeenHolder;
  return (holder[seenKey] ??= new Map());
}

// The writes of app_seen_at that fall together go in one statement (a
// fleet's phones call all the time: docs/performance.md); each caller still
// waits until its own is written. A driver's row another transaction holds
// (an offer being made to that driver) is skipped, not waited for: waiting
// held a pooled connection and every later batch behind it; the skipped
// driver's next call writes it (a mark of at most 10 s, and the phone calls
// every few seconds).
const seenBatchKey = Symbol.for("taxi.dispatchAppSeenBatch");
type SeenBatchHolder = { [seenBatchKey]?: { db: Db; batcher: WriteBatcher<number> } };
function seenBatcher(db: Db): WriteBatcher<number> {
  const holder = globalThis as SeenBatchHolder;
  const current = holder[seenBatchKey];
  if (current && current.db === db) return current.batcher;
  const batcher = writeBatcher<number>(async (ids) => {
    const wanted = [...new Set(ids)];
    const written = await sqlQuery<{ id: number }>(
      db,
      `UPDATE driver SET app_seen_at = now() WHERE id IN (SELECT id FROM driver WHERE id = ANY($1::int[]) FOR NO KEY UPDATE SKIP LOCKED) RETURNING id`,
      [wanted],
    );
    if (written.length === wanted.length) return;
    const done = new Set(written.map((r) => r.id));
    for (const id of wanted) if (!done.has(id)) seenWrites().delete(id);
  });
  holder[seenBatchKey] = { db, batcher };
  return batcher;
}

/** The app's mark was stored by another write of the driver's row (a position report's): no write of its own for a while. */
export function appSeenStored(driverId: number, now = Date.now()): void {
  const writes = seenWrites();
  if (writes.size > 100_000) writes.clear();
  writes.set(driverId, now);
}

/** The app is alive: stored at most every SEEN_WRITE_SECONDS per driver and process. */
export async function noteAppSeen(db: Db, driverId: number, now = Date.now()): Promise<void> {
  const last = seenWrites().get(driverId);
  if (last !== undefined && now - last < SEEN_WRITE_SECONDS * 1000) return;
  appSeenStored(driverId, now);
  await seenBatcher(db).add(driverId);
}

/**
 * A successful driver app call: the app is alive, and an act brings an away
 * driver back. A position report does that in its own statement, only when
 * the car moved (server/driver-app/shift.ts, reportPosition).
 */
export async function noteDriverCall(db: Db, driverId: number, operationPath: string): Promise<void> {
  await noteAppSeen(db, driverId);
  if (ACTING_PATHS.has(operationPath)) {
    await sqlQuery(db, `UPDATE driver SET missed_offers = 0, away_since = NULL, away_lat = NULL, away_lon = NULL
        WHERE id = $1 AND (missed_offers <> 0 OR away_since IS NOT NULL)`, [driverId]);
  }
}

export interface MissedOffers {
  missedOffers: number;
  awaySince: Date | null;
}

/**
 * The rule of one more offer let time out: the count goes up, and at
 * `limit` in a row (0: never) the driver is set away (once; the time of the
 * first stays). Pure, so the rule is tested by hand (tests/unit/dispatch-quality.test.ts).
 */
export function afterTimeout(state: MissedOffers, limit: number, now: Date): MissedOffers & { setAway: boolean } {
  const missedOffers = state.missedOffers + 1;
  const setAway = limit > 0 && missedOffers >= limit && state.awaySince === null;
  return { missedOffers, awaySince: setAway ? now : state.awaySince, setAway };
}

/**
 * An offer to the driver timed out (in the transaction that closes it,
 * after the order's lock, as moveOrder takes them): one more missed in a
 * row; at the setting's count the driver is set away where the car stands.
 * True when this timeout set the driver away.
 */
export async function countTimeoutInTx(tx: Tx, driverId: number): Promise<boolean> {
  return (await countTimeoutsInTx(tx, [driverId])).has(driverId);
}

/**
 * The same for several drivers, one timeout each (a round's sweep of
 * expired offers), in two statements whatever their number: their rows
 * locked in id order and read, then written. The drivers this set away.
 */
export async function countTimeoutsInTx(tx: Tx, driverIds: readonly number[]): Promise<Set<number>> {
  if (driverIds.length === 0) return new Set();
  // The time a driver was set away stays as stored (the first of a run); only a driver set away now gets one.
  const rows = await sqlQuery<{ id: number; missed_offers: number; away_since: Date | null }>(
    tx,
    `SELECT id, missed_offers, away_since FROM driver WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE`,
    [[...driverIds]],
  );
  const now = new Date();
  const next = rows.map((row) => ({ id: row.id, ...afterTimeout({ missedOffers: row.missed_offers, awaySince: row.away_since }, config().DISPATCH_AWAY_AFTER_TIMEOUTS, now) }));
  await sqlQuery(
    tx,
    `UPDATE driver d SET missed_offers = x.missed, away_since = CASE WHEN x.set_away THEN x.away_since::timestamp ELSE d.away_since END,
            away_lat = CASE WHEN x.set_away THEN d.lat ELSE d.away_lat END, away_lon = CASE WHEN x.set_away THEN d.lon ELSE d.away_lon END
       FROM unnest($1::int[], $2::int[], $3::text[], $4::boolean[]) AS x(id, missed, away_since, set_away)
      WHERE d.id = x.id`,
    [next.map((n) => n.id), next.map((n) => n.missedOffers), next.map((n) => (n.setAway ? now.toISOString() : null)), next.map((n) => n.setAway)],
  );
  return new Set(next.filter((n) => n.setAway).map((n) => n.id));
}

/**
 * The SQL condition (on the alias `d`) a driver must meet to be offered
 * orders automatically: not away, a fresh position, a live app. Numbers come
 * from the validated configuration, never from a request. Not on a break.
 */
export function liveCandidateSql(settings: LivenessSettings = livenessSettings()): string {
  // A driver on a break (driver_break, issue 34) is on shift but offered nothing.
  const parts = ["d.away_since IS NULL", "NOT EXISTS (SELECT 1 FROM driver_break b WHERE b.driver_id = d.id)"];
  if (settings.positionMaxAgeSeconds > 0) {
    parts.push(`d.position_at > now() - make_interval(secs => ${Math.trunc(settings.positionMaxAgeSeconds)})`);
  }
  if (settings.appSilentSeconds > 0) {
    parts.push(`d.app_seen_at > now() - make_interval(secs => ${Math.trunc(settings.appSilentSeconds)})`);
  }
  return parts.join(" AND ");
}

/** Why a driver is not a candidate now (null: they are), for the console and the driver app. */
export interface DriverLiveness {
  away: boolean;
  awaySince: Date | null;
  stalePosition: boolean;
  silentApp: boolean;
}

export interface LivenessSettings {
  positionMaxAgeSeconds: number;
  appSilentSeconds: number;
}

export function livenessSettings(): LivenessSettings {
  const cfg = config();
  return { positionMaxAgeSeconds: cfg.DISPATCH_POSITION_MAX_AGE_SECONDS, appSilentSeconds: cfg.DISPATCH_APP_SILENT_SECONDS };
}

/** The same rules as liveCandidateSql, on one driver's row (the console, the driver app, the tests). */
export function livenessOf(
  d: { awaySince: Date | null; positionAt: Date | null; appSeenAt: Date | null },
  settings: LivenessSettings = livenessSettings(),
  now = Date.now(),
): DriverLiveness {
  const older = (at: Date | null, seconds: number) => seconds > 0 && (at === null || now - at.getTime() > seconds * 1000);
  return {
    away: d.awaySince !== null,
    awaySince: d.awaySince,
    stalePosition: older(d.positionAt, settings.positionMaxAgeSeconds),
    silentApp: older(d.appSeenAt, settings.appSilentSeconds),
  };
}

/** Whether automatic dispatch offers the driver orders (when free and on shift). */
export function isOfferable(l: DriverLiveness): boolean {
  return !l.away && !l.stalePosition && !l.silentApp;
}
