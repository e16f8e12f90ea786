// Reference data: the distribution settings per service and region, as the
// console's administrators edit them (the tRPC mutation is audited).
import { z } from "zod";
import type { Db } from "../db";
import { ValidationError } from "../errors";
import { forgetSettings, SETTINGS_SELECT, type DispatchSettings } from "./settings";

export const settingsInput = z.object({
  serviceId: z.number().int().positive(),
  regionId: z.number().int().positive().nullable(),
  mode: z.enum(["AUTO", "QUEUE", "RADIO", "MANUAL"]),
  strategy: z.enum(["GREEDY", "BATCHED"]),
  acceptSeconds: z.number().int().min(5).max(600),
  attempts: z.number().int().min(1).max(50),
  radiusKm: z.number().min(0.1).max(100),
  freeLongMinutes: z.number().int().min(1).max(1440),
  batchSeconds: z.number().int().min(1).max(120),
  fairnessWeight: z.number().min(0).max(600),
  chainMinutes: z.number().int().min(0).max(60),
  minBalance: z.number().int().min(-100_000_000).max(100_000_000),
  advanceLeadMinutes: z.number().int().min(5).max(1440),
  confirmLeadMinutes: z.number().int().min(1).max(720),
});
export type SettingsInput = z.infer<typeof settingsInput>;

export async function listDispatchSettings(db: Db): Promise<DispatchSettings[]> {
  return db.dispatchSetting.findMany({ select: SETTINGS_SELECT, orderBy: [{ serviceId: "asc" }, { regionId: "asc" }] });
}

/** Creates or replaces the settings of a service (regionId null: its default) or of one region. */
export async function saveDispatchSettings(db: Db, input: SettingsInput): Promise<DispatchSettings> {
  if (input.confirmLeadMinutes >= input.advanceLeadMinutes) {
    throw new ValidationError("BAD_PARAMETER", { parameter: "confirmLeadMinutes", expected: "less than advanceLeadMinutes" });
  }
  const service = await db.service.findUnique({ where: { id: input.serviceId }, select: { cityId: true } });
  if (!service) throw new ValidationError("NOT_FOUND", { what: "Service", id: input.serviceId });
  if (input.regionId !== null) {
    const region = await db.region.findUnique({ where: { id: input.regionId }, select: { cityId: true } });
    if (!region || region.cityId !== service.cityId) throw new ValidationError("NOT_FOUND", { what: "Region", id: input.regionId });
  }
  const data = { ...input, minBalance: BigInt(input.minBalance) };
  const saved = await db.$transaction(async (tx) => {
    const existing = await tx.dispatchSetting.findFirst({ where: { serviceId: input.serviceId, regionId: input.regionId }, select: { id: true } });
    return existing
      ? tx.dispatchSetting.update({ where: { id: existing.id }, data, select: SETTINGS_SELECT })
      : tx.dispatchSetting.create({ data, select: SETTINGS_SELECT });
  });
  forgetSettings();
  return saved;
}

export async function deleteDispatchSettings(db: Db, id: number): Promise<void> {
  const { count } = await db.dispatchSetting.deleteMany({ where: { id } });
  if (count === 0) throw new ValidationError("NOT_FOUND", { what: "Dispatch settings", id });
  forgetSettings();
}
