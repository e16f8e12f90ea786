// Drivers: the list, and one driver's position by call sign.
import { z } from "zod";
import { defineOperation } from "../define";
import { preparedQuery, type PreparedStatement } from "../../db/prepared";
import { p } from "../params";
import { ValidationError } from "../../errors";
import { DRIVER_HOLDING_STATES } from "../../orders/states";

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
interface DriverPositionRow {
  lat: number;
  lon: number;
  known: boolean;
  speed: number;
  bearing: number;
  region_id: number | null;
  city_id: number;
  order_id: number | null;
}

export const driversListOperation = defineOperation({
  method: "GET",
  path: "drivers",
  summary: "Drivers, by service and city",
  auth: true,
  input: z.object({ service_id: p.natural().optional(), city_id: p.natural().optional() }),
  output: z.object({
    drivers: z.array(
      z.object({
        id: z.number().int(),
        first_name: z.string(),
        code: z.string(),
        phone: z.string(),
        permit_number: z.string().nullable(),
        lat: z.string(),
        lon: z.string(),
        car_brand: z.string(),
        car_model: z.string(),
        car_reg_num: z.string(),
        car_year: z.string().nullable(),
      }),
    ),
  }),
  handle: async (input, ctx) => {
    const drivers = await ctx.db.driver.findMany({
      where: {
        active: true,
        ...(input.city_id !== undefined ? { cityId: input.city_id } : {}),
        ...(input.service_id !== undefined ? { services: { some: { serviceId: input.service_id } } } : {}),
      },
      select: { id: true, firstName: true, callSign: true, phone: true, permitNumber: true, lat: true, lon: true, car: { select: { brand: true, model: true, regNumber: true, year: true } } },
      orderBy: { id: "asc" },
    });
    return {
      drivers: drivers.map((d) => ({
        id: d.id,
        first_name: d.firstName,
        code: d.callSign,
        phone: d.phone,
        permit_number: d.permitNumber,
        lat: d.lat === null ? "" : String(d.lat),
        lon: d.lon === null ? "" : String(d.lon),
        car_brand: d.car?.brand ?? "",
        car_model: d.car?.model ?? "",
        car_reg_num: d.car?.regNumber ?? "",
        car_year: d.car?.year ? String(d.car.year) : null,
      })),
    };
  },
});

export const driverPositionOperation = defineOperation({
  method: "GET",
  path: "drivers",
  summary: "One driver's position by call sign (`code`)",
  auth: true,
  when: (params) => params.has("code"),
  input: z.object({ code: p.string(50) }),
  output: z.object({
    lat: z.number(),
    lon: z.number(),
    /** false: the driver has reported no position yet, and lat/lon are the city's centre */
    position_known: z.boolean(),
    speed: z.number(),
    bearing: z.number(),
    order_id: z.number().int().nullable(),
    region_id: z.number().int().nullable(),
    city_id: z.number().int(),
  }),
  handle: async (input, ctx) => {
    const [driver] = await preparedQuery<DriverPositionRow>(ctx.db, DRIVER_POSITION, [input.code]);
    if (!driver) throw new ValidationError("NOT_FOUND", { what: "Driver", id: input.code });
    return {
      lat: driver.lat,
      lon: driver.lon,
      position_known: driver.known,
      speed: driver.speed,
      bearing: driver.bearing,
      order_id: driver.order_id,
      region_id: driver.region_id,
      city_id: driver.city_id,
    };
  },
});
