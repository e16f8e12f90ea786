// Drivers: the list, and one driver's position by call sign.
import { z } from "zod";
import { defineOperation } from "../define";
import { p } from "../params";
import { ValidationError } from "../../errors";
import { driverPosition, listActiveDrivers } from "../../drivers/dispatch-drivers";

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
    const drivers = await listActiveDrivers(ctx.db, { cityId: input.city_id, serviceId: input.service_id });
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
    const driver = await driverPosition(ctx.db, input.code);
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
