// What the phone order form offers for a caller's number: who they are and
// the addresses of their recent orders (pickups and destinations), most
// recent first, without repeats.
import type { Db } from "../db";
import { normalizePhone } from "../orders/phone";

export interface RecentAddress {
  street: string;
  house: string;
  entrance: string;
  apartment: string;
  lat: number | null;
  lon: number | null;
  /** How the address was used last: a pickup or a destination. */
  role: "pickup" | "destination";
  lastOrderId: number;
}

export async function recentAddresses(db: Db, input: { phone: string; limit?: number }) {
  // Whatever form the operator types (8..., +7..., +998...): the stored E.164.
  const phone = normalizePhone(input.phone);
  if (!phone) return { phone: input.phone, client: null, addresses: [] as RecentAddress[], orders: 0 };
  const [client, orders] = await Promise.all([
    db.client.findUnique({ where: { phone }, select: { id: true, name: true, bonus: true } }),
    db.order.findMany({
      where: { phone },
      orderBy: { id: "desc" },
      take: 30,
      select: {
        id: true,
        clientName: true,
        street: true,
        house: true,
        entrance: true,
        apartment: true,
        lat: true,
        lon: true,
        dstStreet: true,
        dstHouse: true,
        dst: true,
        dstLat: true,
        dstLon: true,
      },
    }),
  ]);
  const seen = new Set<string>();
  const addresses: RecentAddress[] = [];
  const add = (a: RecentAddress) => {
    if (!a.street.trim()) return;
    const key = `${a.street.trim().toLowerCase()}|${a.house.trim().toLowerCase()}`;
    if (seen.has(key)) return;
    seen.add(key);
    addresses.push(a);
  };
  for (const o of orders) {
    add({ street: o.street, house: o.house, entrance: o.entrance, apartment: o.apartment, lat: o.lat, lon: o.lon, role: "pickup", lastOrderId: o.id });
    add({
      street: o.dstStreet || o.dst,
      house: o.dstStreet ? o.dstHouse : "",
      entrance: "",
      apartment: "",
      lat: o.dstLat,
      lon: o.dstLon,
      role: "destination",
      lastOrderId: o.id,
    });
  }
  return {
    phone,
    client: client ?? (orders[0]?.clientName ? { id: null, name: orders[0].clientName, bonus: 0 } : null),
    addresses: addresses.slice(0, input.limit ?? 8),
    orders: orders.length,
  };
}
