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
  input: z.object({ service_id: p.natural().optional().describe("Only this service's drivers"), city_id: p.natural().optional().describe("Only this city's drivers") }),
  output: z.object({
    drivers: z
      .array(
        z.object({
          id: z.number().int().describe("The driver's internal id"),
          first_name: z.string().describe("First name"),
          code: z.string().describe("The call sign (driver_id elsewhere)").meta({ examples: ["101"] }),
          phone: z.string().describe("Phone, international with the plus"),
          permit_number: z.string().nullable().describe("The taxi permit's number"),
          lat: z.string().describe("Latitude, degrees, as a string (the reference's quirk); empty before a position").meta({ examples: ["55.7558"] }),
          lon: z.string().describe("Longitude, degrees, as a string (the reference's quirk); empty before a position").meta({ examples: ["37.6173"] }),
          car_brand: z.string().describe("The car's make"),
          car_model: z.string().describe("The car's model"),
          car_reg_num: z.string().describe("The car's registration number"),
          car_year: z.string().nullable().describe("The car's year, as a string"),
        }),
      )
      .describe("Drivers on shift"),
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
  input: z.object({ code: p.string(50).describe("The driver's call sign: this form answers one driver's position").meta({ examples: ["101"] }) }),
  errors: ["NOT_FOUND"],
  output: z.object({
    lat: z.number().describe("Latitude, degrees (a number here)"),
    lon: z.number().describe("Longitude, degrees (a number here)"),
    /** false: the driver has reported no position yet, and lat/lon are the city's centre */
    position_known: z.boolean().describe("false: no position reported yet, and lat/lon are the city's centre"),
    speed: z.number().describe("Speed, km/h"),
    bearing: z.number().describe("Heading, degrees clockwise from north"),
    order_id: z.number().int().nullable().describe("The order the driver has, if any"),
    region_id: z.number().int().nullable().describe("The region the driver is in"),
    city_id: z.number().int().describe("The driver's city"),
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
