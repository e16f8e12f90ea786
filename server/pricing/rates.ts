// Which rate is in force: an explicit rate, or the service's rates that apply
// at the order time's hour in the city's time zone, the queue's own before
// the service-wide ones, hour-bound before all-day, the basic one last.
import type { DbOrTx } from "../db";
import { PricingError, ValidationError } from "../errors";
import { reference } from "../reference/cache";

export { rateSelect, type RateRow } from "./rate-shape";
import type { RateRow } from "./rate-shape";

import { localHour } from "../geo/local-hour";

export function rateAppliesAt(rate: Pick<RateRow, "startHour" | "endHour">, hour: number): boolean {
  if (rate.startHour === null || rate.endHour === null) return true;
  if (rate.startHour === rate.endHour) return true;
  return rate.startHour < rate.endHour
    ? hour >= rate.startHour && hour < rate.endHour
    : hour >= rate.startHour || hour < rate.endHour;
}

export async function chooseRate(
  db: DbOrTx,
  input: { serviceId: number; queueId: number | null; rateId?: number; at: Date; timeZone: string },
): Promise<RateRow> {
  const { rates } = await reference(db);
  if (input.rateId !== undefined) {
    const rate = rates.find((r) => r.id === input.rateId);
    if (!rate || rate.serviceId !== input.serviceId) {
      throw new ValidationError("BAD_PARAMETER", { parameter: "rate_id", expected: "a rate of the chosen service" });
    }
    return rate;
  }
  const hour = localHour(input.at, input.timeZone);
  const applicable = rates
    .filter((r) => r.serviceId === input.serviceId && (r.queueId === null || r.queueId === input.queueId) && rateAppliesAt(r, hour))
    .sort(
      (a, b) =>
        Number(b.queueId !== null) - Number(a.queueId !== null) ||
        Number(b.startHour !== null) - Number(a.startHour !== null) ||
        Number(a.isBasic) - Number(b.isBasic) ||
        a.id - b.id,
    );
  const rate = applicable[0];
  if (!rate) throw new PricingError("NO_RATE", { serviceId: input.serviceId });
  return rate;
}
