// The hour the company's shift day starts (0..23, local time of the city), a
// setting administrators change in the Reports section; 8 until set.
import type { DbOrTx } from "../db";

export const SHIFT_START_KEY = "reports.shiftStartHour";
export const DEFAULT_SHIFT_START_HOUR = 8;

export async function shiftStartHour(db: DbOrTx): Promise<number> {
  const row = await db.setting.findUnique({ where: { key: SHIFT_START_KEY }, select: { value: true } });
  const value = row?.value;
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 23 ? value : DEFAULT_SHIFT_START_HOUR;
}

export async function setShiftStartHour(db: DbOrTx, hour: number): Promise<{ hour: number }> {
  await db.setting.upsert({ where: { key: SHIFT_START_KEY }, create: { key: SHIFT_START_KEY, value: hour }, update: { value: hour }, select: { key: true } });
  return { hour };
}
