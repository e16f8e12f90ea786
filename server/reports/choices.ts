// What the Reports page's filters offer: cities, services, regions, drivers
// and dispatch API keys (names only), and the shift start hour.
import type { DbOrTx } from "../db";
import { shiftStartHour } from "./settings";

export async function reportChoices(db: DbOrTx) {
  const [cities, services, regions, drivers, apiKeys, hour] = await Promise.all([
    db.city.findMany({ select: { id: true, name: true, nameEn: true }, orderBy: { id: "asc" } }),
    db.service.findMany({ select: { id: true, name: true, nameEn: true, cityId: true }, orderBy: { id: "asc" } }),
    db.region.findMany({ select: { id: true, name: true, nameEn: true, cityId: true }, orderBy: { id: "asc" } }),
    db.driver.findMany({ select: { id: true, callSign: true, cityId: true }, orderBy: { callSign: "asc" }, take: 2000 }),
    db.apiKey.findMany({ select: { id: true, name: true }, orderBy: { id: "asc" } }),
    shiftStartHour(db),
  ]);
  return { cities, services, regions, drivers, apiKeys, shiftStartHour: hour };
}
