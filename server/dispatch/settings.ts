// Distribution settings per service and pickup region (DispatchSetting): the
// region's own row, else the service's default (regionId null), else none —
// an unconfigured service is dispatched as before automatic dispatch: its
// free orders wait for drivers to take them (GET /driver-app/v1/offers).
// Read by every dispatch round and driver-app offer list, so the rows are
// kept in memory for a second (a console change is seen within that).
import type { DbOrTx } from "../db";

export type DispatchModeName = "AUTO" | "QUEUE" | "RADIO" | "MANUAL";

export interface DispatchSettings {
  id: number;
  serviceId: number;
  regionId: number | null;
  mode: DispatchModeName;
  strategy: "GREEDY" | "BATCHED";
  acceptSeconds: number;
  attempts: number;
  radiusKm: number;
  freeLongMinutes: number;
  batchSeconds: number;
  fairnessWeight: number;
  chainMinutes: number;
  minBalance: bigint;
  advanceLeadMinutes: number;
  confirmLeadMinutes: number;
}

export const SETTINGS_SELECT = {
  id: true,
  serviceId: true,
  regionId: true,
  mode: true,
  strategy: true,
  acceptSeconds: true,
  attempts: true,
  radiusKm: true,
  freeLongMinutes: true,
  batchSeconds: true,
  fairnessWeight: true,
  chainMinutes: true,
  minBalance: true,
  advanceLeadMinutes: true,
  confirmLeadMinutes: true,
} as const;

export class SettingsIndex {
  private readonly byKey = new Map<string, DispatchSettings>();
  constructor(readonly rows: DispatchSettings[]) {
    for (const row of rows) this.byKey.set(`${row.serviceId}:${row.regionId ?? ""}`, row);
  }
  /** The settings an order of this service picked up in this region follows (undefined: not dispatched). */
  forOrder(serviceId: number, regionId: number | null): DispatchSettings | undefined {
    return (regionId !== null ? this.byKey.get(`${serviceId}:${regionId}`) : undefined) ?? this.byKey.get(`${serviceId}:`);
  }
  /** Whether a driver may take the order by themselves from the list of free orders. */
  pullable(state: string, serviceId: number, regionId: number | null): boolean {
    if (state === "ORDER_ON_RADIO") return true;
    const mode = this.forOrder(serviceId, regionId)?.mode;
    return mode === undefined || mode === "RADIO";
  }
  get empty(): boolean {
    return this.rows.length === 0;
  }
}

// On globalThis: the console's routes (Next's bundle) and the dispatch job
// (the custom server's modules) are one process but two module instances; a
// change saved through the console is then seen at once by this instance's
// dispatcher, and within TTL_MS by the others.
const key = Symbol.for("taxi.dispatchSettings");
type Holder = { [key]?: { at: number; index: SettingsIndex } };
const TTL_MS = 1000;

export async function loadSettings(db: DbOrTx, fresh = false): Promise<SettingsIndex> {
  const holder = globalThis as Holder;
  const cached = holder[key];
  if (!fresh && cached && Date.now() - cached.at < TTL_MS) return cached.index;
  const rows = await db.dispatchSetting.findMany({ select: SETTINGS_SELECT, orderBy: { id: "asc" } });
  const index = new SettingsIndex(rows);
  holder[key] = { at: Date.now(), index };
  return index;
}

/** After a change in this process: the next read goes to the database. */
export function forgetSettings(): void {
  delete (globalThis as Holder)[key];
}
