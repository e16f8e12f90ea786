// What the app could not send: the driver's status moves, completions and
// the positions recorded without a connection, kept in IndexedDB (idb-keyval)
// so that a reload or a dead battery loses nothing, and replayed in the order
// they happened when the connection returns.
//
// Idempotency is the interface's own: a status move carries the order's
// `version` (a move queued after another queued move of the same order takes
// the version the previous move's reply gave), so a replay never moves an
// order twice; `orders/complete` repeated replies the same and charges once.
// A move the server refuses (the dispatcher took the order back meanwhile)
// drops the order's later queued moves and is reported as a conflict.
import { createStore, get, set, update, type UseStore } from "idb-keyval";
import { driverCall, DriverApiError, type DriverOrder, type PositionFix } from "./api";

export type QueuedAction =
  | { id: string; kind: "position"; fix: PositionFix }
  | { id: string; kind: "status"; uuid: string; orderId: number; status: string; version: number | null; chained: boolean; at: string }
  | { id: string; kind: "complete"; uuid: string; orderId: number; at: string };

export interface ReplayConflict {
  orderId: number;
  what: string;
  code: string;
  message: string;
}

export interface ReplayOutcome {
  sent: number;
  conflicts: ReplayConflict[];
  /** The orders as the server replied after the replayed moves. */
  orders: DriverOrder[];
  /** Stopped because the connection dropped again (or the server could not take it: 5xx, 429). */
  interrupted: boolean;
  /** The server's Retry-After when it stopped the replay. */
  retryAfterSeconds?: number;
}

const KEY = "queue";
/** The batched form's limit (POST /positions). */
const BATCH = 500;

let store: UseStore | undefined;
function db(): UseStore {
  store ??= createStore("taxi-driver-app", "offline");
  return store;
}

let counter = 0;
export function actionId(): string {
  counter += 1;
  return `${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

// Variadic distributive Omit keeps the union's kinds apart.
type NewAction = QueuedAction extends infer A ? (A extends QueuedAction ? Omit<A, "id"> : never) : never;

export async function enqueue(action: NewAction): Promise<void> {
  await update<QueuedAction[]>(KEY, (queue) => [...(queue ?? []), { ...action, id: actionId() }], db());
}

export async function queued(): Promise<QueuedAction[]> {
  return (await get<QueuedAction[]>(KEY, db())) ?? [];
}

async function removeIds(ids: ReadonlySet<string>): Promise<void> {
  await update<QueuedAction[]>(KEY, (queue) => (queue ?? []).filter((a) => !ids.has(a.id)), db());
}

export async function clearQueue(): Promise<void> {
  await set(KEY, [], db());
}

/** Sends positions as one batch (POST /positions); one by one through POST /position where the server has no batched form yet. */
async function sendPositions(key: string, fixes: PositionFix[]): Promise<void> {
  try {
    await driverCall(key, "POST", "positions", { positions: fixes });
    return;
  } catch (e) {
    if (!(e instanceof DriverApiError) || e.status !== 404) throw e;
  }
  for (const fix of fixes) {
    try {
      await driverCall(key, "POST", "position", { ...fix });
    } catch (e) {
      // Off shift or out of range: that position is of no use any more.
      if (e instanceof DriverApiError && (e.status === 409 || e.status === 400)) continue;
      throw e;
    }
  }
}

/**
 * A queued move with `at`, the moment the driver pressed the button (the
 * waiting at the pickup and the trip's minutes are metered between these
 * moments). A server that refuses that time (a phone clock far off, a move
 * queued for hours: BAD_PARAMETER `at`) gets the move without it, so the move
 * itself is not lost; it then counts from its arrival.
 */
async function sendMove<T>(key: string, path: string, input: Record<string, unknown>, at: string): Promise<T> {
  try {
    return await driverCall<T>(key, "POST", path, { ...input, at });
  } catch (e) {
    if (e instanceof DriverApiError && e.code === "BAD_PARAMETER" && e.details.parameter === "at") return driverCall<T>(key, "POST", path, input);
    throw e;
  }
}

/** Replays the queue in order; what was sent (or refused for good) leaves it, the rest waits for the next try. */
export async function replay(key: string, describe: (a: QueuedAction) => string): Promise<ReplayOutcome> {
  const queue = await queued();
  const outcome: ReplayOutcome = { sent: 0, conflicts: [], orders: [], interrupted: false };
  const versions = new Map<string, number>();
  const failed = new Set<string>();
  let i = 0;
  try {
    while (i < queue.length) {
      const action = queue[i]!;
      if (action.kind === "position") {
        const run: QueuedAction[] = [];
        while (i < queue.length && queue[i]!.kind === "position" && run.length < BATCH) run.push(queue[i++]!);
        try {
          await sendPositions(key, run.map((a) => (a as Extract<QueuedAction, { kind: "position" }>).fix));
        } catch (e) {
          if (!(e instanceof DriverApiError) || e.offline || e.status >= 500 || e.status === 429) throw e;
          // Refused for good (e.g. off shift): dropped.
        }
        await removeIds(new Set(run.map((a) => a.id)));
        outcome.sent += run.length;
        continue;
      }
      i += 1;
      if (failed.has(action.uuid)) {
        await removeIds(new Set([action.id]));
        continue;
      }
      try {
        if (action.kind === "status") {
          const version = action.chained ? versions.get(action.uuid) ?? action.version : action.version;
          const reply = await sendMove<{ order: DriverOrder }>(key, "orders/status", { uuid: action.uuid, status: action.status, ...(version !== null && version !== undefined ? { version } : {}) }, action.at);
          versions.set(action.uuid, reply.order.version);
          outcome.orders.push(reply.order);
        } else {
          const reply = await sendMove<{ order: DriverOrder }>(key, "orders/complete", { uuid: action.uuid }, action.at);
          outcome.orders.push(reply.order);
        }
        outcome.sent += 1;
      } catch (e) {
        if (!(e instanceof DriverApiError) || e.offline || e.status >= 500 || e.status === 429 || e.status === 401) throw e;
        failed.add(action.uuid);
        outcome.conflicts.push({ orderId: action.orderId, what: describe(action), code: e.code, message: e.message });
      }
      await removeIds(new Set([action.id]));
    }
  } catch (e) {
    if (e instanceof DriverApiError && e.unauthorized) throw e;
    outcome.interrupted = true;
    if (e instanceof DriverApiError) outcome.retryAfterSeconds = e.retryAfterSeconds;
  }
  return outcome;
}
