// Position reports written in batches: the fleet's most frequent write (each
// of 10,000 drivers every few seconds, docs/performance.md, "A fleet of ten
// thousand"). Reports that arrive while the previous statement is in flight
// go together in one multi-row statement (result-batcher.ts); each report's
// reply waits until that statement has committed, so an acknowledged
// position is stored. What one statement does for every report in it:
// - the driver's row (the last position: no history table is kept; a fix
//   older than the stored one, a replay, only joins the track), with the
//   mark that the app is alive (app_seen_at: the row is written anyway, so
//   the report's call does not write it again, server/dispatch/liveness.ts),
// - the track of an order IN_PROCESS (the taximeter's, kept with the order),
// - leaving the parking queue when the newer fix takes the car out of the
//   stand's region (or the driver is not FREE; a driver a dispatcher put on a
//   stand while the car stood elsewhere keeps the place until then),
// - an away driver brought back when the fix shows the car moved
//   (server/dispatch/liveness.ts).
// The rows are locked first, in the order of their ids, skipping a row another
// transaction holds (an offer being made to that driver): one driver's lock
// must not hold up a batch of hundreds. A skipped report is written alone
// after the batch, waiting for its row as a single report always did.
import type { Db } from "../db";
import { preparedQuery, type PreparedStatement } from "../db/sql";
import { resultBatcher, type ResultBatcher } from "../db/result-batcher";
import { MOVED_DEGREES } from "../dispatch/liveness";
import { OrderError } from "../errors";

export interface PositionRow {
  driverId: number;
  lat: number;
  lon: number;
  speed: number;
  bearing: number;
  at: Date;
  regionId: number | null;
}

/** The driver's state after the write, and whether this fix became the stored position; undefined when the driver is off shift. */
export type PositionWritten = { state: string; newer: boolean } | undefined;

const newer = `(d.position_at IS NULL OR d.position_at <= u.at)`;
const fresh = (column: string, value: string) => `CASE WHEN ${newer} THEN ${value} ELSE d.${column} END`;
const moved = `(d.away_since IS NOT NULL AND (d.away_lat IS NULL OR ${fresh("lat", "u.lat")} IS NULL
    OR abs(${fresh("lat", "u.lat")} - d.away_lat) > $8
    OR abs(${fresh("lon", "u.lon")} - d.away_lon) > $8 * 1.8))`;

/** The statement; `skipLocked`: rows locked by another transaction are left out (and reported), not waited for. */
const statement = (skipLocked: boolean) => `
  WITH u AS (
    SELECT * FROM unnest($1::int[], $2::float8[], $3::float8[], $4::float8[], $5::float8[], $6::timestamp[], $7::int[])
      AS u(id, lat, lon, speed, bearing, at, region_id)),
  locked AS MATERIALIZED (SELECT id FROM driver WHERE id = ANY($1::int[]) ORDER BY id FOR NO KEY UPDATE${skipLocked ? " SKIP LOCKED" : ""}),
  w AS (
    UPDATE driver d SET
      lat = ${fresh("lat", "u.lat")},
      lon = ${fresh("lon", "u.lon")},
      speed = ${fresh("speed", "u.speed")},
      bearing = ${fresh("bearing", "u.bearing")},
      region_id = ${fresh("region_id", "u.region_id")},
      position_at = GREATEST(d.position_at, u.at),
      app_seen_at = now(),
      missed_offers = CASE WHEN ${moved} THEN 0 ELSE d.missed_offers END,
      away_lat = CASE WHEN ${moved} THEN NULL ELSE d.away_lat END,
      away_lon = CASE WHEN ${moved} THEN NULL ELSE d.away_lon END,
      away_since = CASE WHEN ${moved} THEN NULL ELSE d.away_since END
    FROM u JOIN locked l ON l.id = u.id
    WHERE d.id = u.id AND d.state <> 'OFFLINE'
    RETURNING d.id, d.state, d.position_at = u.at AS newer, u.lat, u.lon, u.speed, u.at, u.region_id),
  prev AS (SELECT id, region_id AS old_region FROM driver WHERE id = ANY($1::int[])),
  t AS (
    INSERT INTO order_track (order_id, lat, lon, speed, at)
    SELECT o.id, w.lat, w.lon, w.speed, w.at FROM w JOIN orders o ON o.driver_id = w.id AND o.state = 'IN_PROCESS' WHERE w.state = 'BUSY'),
  q AS (
    DELETE FROM dispatch_queue_entry e USING w, prev
     WHERE e.driver_id = w.id AND prev.id = w.id AND w.newer
       AND (w.state <> 'FREE' OR (prev.old_region IS NOT NULL AND prev.old_region IS DISTINCT FROM w.region_id AND e.region_id = prev.old_region)))
  SELECT l.id, w.state::text AS state, w.newer FROM locked l LEFT JOIN w ON w.id = l.id`;
// Prepared on PostgreSQL: planning the statement took 0.27 ms of the database's
// time, more than running it for one report (0.10 ms; docs/performance.md,
// "The app's mark in the position's statement").
export const POSITIONS_BATCH: PreparedStatement = { name: "driver_positions_batch", sql: statement(true) };
const ONE: PreparedStatement = { name: "driver_positions_one", sql: statement(false) };

function isDeadlock(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "40P01";
}

const SKIPPED = Symbol("skipped");
type Written = PositionWritten | typeof SKIPPED;

/**
 * One statement for the batch. A driver whose row another transaction holds
 * (an offer being made to them, a move of their order) is skipped rather
 * than waited for: the whole batch would otherwise wait behind that one
 * transaction. The skipped reports are then written one by one (writePosition).
 */
async function writePositions(db: Db, rows: PositionRow[], which = POSITIONS_BATCH): Promise<Written[]> {
  const params = [
    rows.map((r) => r.driverId),
    rows.map((r) => r.lat),
    rows.map((r) => r.lon),
    rows.map((r) => r.speed),
    rows.map((r) => r.bearing),
    rows.map((r) => r.at.toISOString()),
    rows.map((r) => r.regionId),
    MOVED_DEGREES,
  ];
  for (let attempt = 1; ; attempt++) {
    try {
      const written = await preparedQuery<{ id: number; state: string | null; newer: boolean | null }>(db, which, params);
      const byId = new Map(written.map((w) => [w.id, w.state === null ? undefined : { state: w.state, newer: w.newer === true }]));
      return rows.map((r) => (byId.has(r.driverId) ? byId.get(r.driverId) : which === POSITIONS_BATCH ? SKIPPED : undefined));
    } catch (error) {
      // Another transaction's locks in another order (a move of an order locks its driver): the statement is whole or nothing, so once more.
      if (attempt < 3 && isDeadlock(error)) continue;
      throw error;
    }
  }
}

/** Reports waiting for their statement at most; past it a report is refused (429) and the phone reports again. */
const MAX_WAITING = 2_000;

const key = Symbol.for("taxi.positionWriter");
type Holder = { [key]?: WeakMap<Db, ResultBatcher<PositionRow, Written>> };

/** A skipped report tries the next batches this often, and for this long, before it waits for its row alone. */
const SKIPPED_RETRY_MS = 100;
const SKIPPED_RETRY_FOR_MS = 5_000;

/**
 * Writes a position with the others that arrive meanwhile; resolves after its
 * statement committed. `beforeWait`: the request gives back its admission
 * place while it waits (it does no work meanwhile; the queue here is bounded).
 */
export async function writePosition(db: Db, row: PositionRow, beforeWait?: () => void): Promise<PositionWritten> {
  const holder = globalThis as Holder;
  const writers = (holder[key] ??= new WeakMap());
  let writer = writers.get(db);
  if (!writer) {
    writer = resultBatcher((rows) => writePositions(db, rows), {
      maxItems: 500,
      keyOf: (r) => r.driverId,
      // One statement at a time: four at once when reports piled up measured no better on 2 cores shared with PostgreSQL (docs/performance.md, run H).
      maxInFlight: 1,
      // The reports waiting hold no admission place (server/http/load-shed.ts): this bounds them instead, about 1 s of a 10,000-car fleet.
      maxWaiting: MAX_WAITING,
      full: () => new OrderError("RATE_LIMITED", { reason: "positions are arriving faster than they are written" }),
    });
    writers.set(db, writer);
  }
  const pending = writer.add(row);
  beforeWait?.();
  let written = await pending;
  // The driver's row was held (an offer being made to them, a move of their order): the report goes with the next
  // batches until the row is free. Waiting for the lock alone holds a pooled connection meanwhile: with the rounds'
  // offers holding hundreds of drivers' rows for seconds on a loaded instance, such waits took the whole pool and
  // stalled every position for tens of seconds (docs/performance.md, "A fleet of ten thousand", round five).
  const giveUp = Date.now() + SKIPPED_RETRY_FOR_MS;
  while (written === SKIPPED && Date.now() < giveUp) {
    await new Promise((resolve) => setTimeout(resolve, SKIPPED_RETRY_MS));
    written = await writer.add(row);
  }
  if (written !== SKIPPED) return written;
  // Still held after that: this report waits for its row alone, outside the batches.
  return (await writePositions(db, [row], ONE))[0] as PositionWritten;
}
