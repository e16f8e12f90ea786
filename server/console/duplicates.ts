// A caller who rings again while their car is on its way: before a new order
// from the same phone is saved, the console asks when one of that phone's
// active orders has its pickup near the new one (the same street and house,
// or within DUPLICATE_METRES where both points are known).
import type { Db } from "../db";
import { normalizePhone } from "../orders/phone";
import { haversineMetres } from "../geo/distance";
import { NOT_DONE_STATES } from "../orders/states";
import { resolveAddress } from "../geo/address";

export const DUPLICATE_METRES = 300;

export interface PossibleDuplicate {
  id: number;
  state: string;
  street: string;
  house: string;
  createdAt: Date;
  driverCallSign: string | null;
}

const key = (s: string) => s.trim().toLowerCase().replace(/\s+/g, " ");

export async function possibleDuplicates(db: Db, input: { phone: string; street: string; house: string; lat?: number; lon?: number }): Promise<PossibleDuplicate[]> {
  const phone = normalizePhone(input.phone);
  if (!phone) return [];
  const orders = await db.order.findMany({
    where: { phone, state: { in: [...NOT_DONE_STATES] } },
    orderBy: { id: "desc" },
    take: 20,
    select: { id: true, state: true, street: true, house: true, lat: true, lon: true, createdAt: true, driver: { select: { callSign: true } } },
  });
  if (!orders.length) return [];
  // The new pickup's point as the order would get it (the street's point for an unknown house); none: compare the words.
  const point =
    input.lat !== undefined && input.lon !== undefined
      ? { lat: input.lat, lon: input.lon }
      : await resolveAddress(db, { street: input.street, house: input.house }, { streetParam: "street", houseParam: "house", streetPointForHouse: true }).then(
          (a) => (a.known ? { lat: a.lat, lon: a.lon } : null),
          () => null,
        );
  return orders
    .filter((o) => {
      if (point && o.lat !== null && o.lon !== null) return haversineMetres(point, { lat: o.lat, lon: o.lon }) <= DUPLICATE_METRES;
      return key(o.street) === key(input.street) && key(o.house) === key(input.house);
    })
    .map((o) => ({ id: o.id, state: o.state, street: o.street, house: o.house, createdAt: o.createdAt, driverCallSign: o.driver?.callSign ?? null }));
}
