// Drivers as the dispatch API lists them, and one driver's position by call
// sign (a prepared query: clients poll it all day).
import type { DbOrTx } from "../db";
import { preparedQuery, type PreparedStatement } from "../db/sql";
import { DRIVER_HOLDING_STATES } from "../orders/states";

// One prepared query: clients poll a driver's position all day. (The holding
// states are our constants, written into the statement.)
const DRIVER_POSITION: PreparedStatement = {
  name: "dispatch_driver_position",
  // A driver who never reported a position stands at the city's centre
  // (position_known false): clients do float(lat) and would crash on null.
  sql: `SELECT COALESCE(d.lat, c.lat) AS lat, COALESCE(d.lon, c.lon) AS lon, d.lat IS NOT NULL AND d.lon IS NOT NULL AS known,
               d.speed, d.bearing, d.region_id, d.city_id,
               (SELECT o.id FROM orders o
                 WHERE o.driver_id = d.id AND o.state IN (${DRIVER_HOLDING_STATES.map((state) => `'${state}'`).join(", ")})
                 ORDER BY o.id DESC LIMIT 1) AS order_id
          FROM driver d JOIN city c ON c.id = d.city_id WHERE d.call_sign = $1`,
};
export interface DriverPositionRow {
  lat: number;
  lon: number;
  known: boolean;
  speed: number;
  bearing: number;
  region_id: number | null;
  city_id: number;
  order_id: number | null;
}

export function listActiveDrivers(db: DbOrTx, filter: { cityId?: number; serviceId?: number }) {
  return db.driver.findMany({
    where: {
      active: true,
      ...(filter.cityId !== undefined ? { cityId: filter.cityId } : {}),
      ...(filter.serviceId !== undefined ? { services: { some: { serviceId: filter.serviceId } } } : {}),
    },
    select: { id: true, firstName: true, callSign: true, phone: true, permitNumber: true, lat: true, lon: true, car: { select: { brand: true, model: true, regNumber: true, year: true } } },
    orderBy: { id: "asc" },
  });
}

/** A driver's position by call sign, or undefined for an unknown call sign. */
export async function driverPosition(db: DbOrTx, callSign: string): Promise<DriverPositionRow | undefined> {
  const [row] = await preparedQuery<DriverPositionRow>(db, DRIVER_POSITION, [callSign]);
  return row;
}
