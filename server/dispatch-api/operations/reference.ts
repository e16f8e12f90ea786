// Reference data: services, regions, rates, streets, extras.
import { z } from "zod";
import { defineOperation } from "../define";
import { p } from "../params";
import { GeoError } from "../../errors";
import { resolveAddress } from "../../geo/address";
import { regionAt } from "../../geo/regions";
import { allStreetNames, searchStreets } from "../../geo/streets";
import { reference } from "../../reference/cache";
import { kopecksToRoubles } from "../../balances/money";
import { cityByName, listActiveServices, listExtras, listRates, listRegions, regionById } from "../../reference/lists";

export const servicesOperation = defineOperation({
  method: "GET",
  path: "services",
  summary: "Services (of a city, or of all cities)",
  auth: true,
  input: z.object({ city_id: p.natural().optional().describe("Only this city's services; without it, every city's (each with its city_id)") }),
  output: z.object({
    services: z
      .array(
        z.object({
          id: z.number().int().describe("The service's id (service_id elsewhere)"),
          name: z.string().describe("The service's name").meta({ examples: ["Эконом"] }),
          city_id: z.number().int().optional().describe("Its city; present only when city_id was not asked"),
        }),
      )
      .describe("Active services, in their order"),
  }),
  handle: async (input, ctx) => {
    const services = await listActiveServices(ctx.db, input.city_id);
    return { services: services.map((s) => (input.city_id !== undefined ? { id: s.id, name: s.name } : { id: s.id, name: s.name, city_id: s.cityId })) };
  },
});

const region = z.object({ id: z.number().int().describe("The region's id (region_id elsewhere)"), name: z.string().describe("The region's name").meta({ examples: ["Центр"] }) });

export const regionsOperation = defineOperation({
  method: "GET",
  path: "regions",
  summary: "Regions (parking areas), by service and city",
  auth: true,
  input: z.object({ service_id: p.natural().optional().describe("Only the regions of this service's city"), city_id: p.natural().optional().describe("Only this city's regions") }),
  output: z.object({ regions: z.array(region).describe("Regions (parking areas)") }),
  handle: async (input, ctx) => ({
    regions: await listRegions(ctx.db, { cityId: input.city_id, serviceId: input.service_id }),
  }),
});

export const regionByAddressOperation = defineOperation({
  method: "GET",
  path: "region_by_address",
  summary: "The region of an address (street with prefix, house)",
  auth: true,
  input: z.object({
    street: p.string(200).describe("The street with its prefix, or a public place").meta({ examples: ["ул. Ленина"] }),
    house: p.string(50).optional().describe("The house with building and letter"),
    city_id: p.natural().optional().describe("The city to look in; by default every city"),
  }),
  errors: ["NOT_FOUND", "ADDRESS_NOT_FOUND"],
  output: region,
  handle: async (input, ctx) => {
    const address = await resolveAddress(ctx.db, { street: input.street, house: input.house }, { cityId: input.city_id, streetParam: "street", houseParam: "house" });
    if (address.regionId === null) throw new GeoError("NOT_FOUND", { what: "Region", id: `${input.street} ${input.house ?? ""}`.trim() });
    return regionById(ctx.db, address.regionId);
  },
});

export const regionByCoordOperation = defineOperation({
  method: "GET",
  path: "region_by_coord",
  summary: "The region containing a point",
  auth: true,
  input: z.object({
    lat: p.latitude().describe("Latitude, degrees (WGS 84)").meta({ examples: [55.7558] }),
    lon: p.longitude().describe("Longitude, degrees (WGS 84)").meta({ examples: [37.6173] }),
    city_id: p.natural().optional().describe("The city to look in first (a region of another city still answers)"),
  }),
  errors: ["NOT_FOUND"],
  output: region,
  handle: async (input, ctx) => {
    // Clients reuse one parameter set: a city_id left from another call must
    // not hide the region the point is in.
    const found = (await regionAt(ctx.db, input.lat, input.lon, input.city_id)) ?? (input.city_id !== undefined ? await regionAt(ctx.db, input.lat, input.lon) : undefined);
    if (!found) throw new GeoError("NOT_FOUND", { what: "Region", id: `${input.lat}, ${input.lon}` });
    return { id: found.id, name: found.name };
  },
});

export const ratesOperation = defineOperation({
  method: "GET",
  path: "rates",
  summary: "Rates (both stand_cost and stand_kost spellings are served)",
  auth: true,
  input: z.object({ city_id: p.natural().optional().describe("Only this city's rates (then without city_id in each)"), service_id: p.natural().optional().describe("Only this service's rates") }),
  output: z.object({
    rates: z
      .array(
        z.object({
          id: z.number().int().describe("The rate's id (rate_id elsewhere)"),
          name: z.string().describe("The rate's name"),
          service_id: z.number().int().describe("Its service"),
          km_cost: z.number().describe("Roubles per km beyond km_start"),
          km_start: z.number().int().describe("Km included in the pick-up price"),
          stand_cost: z.number().describe("Roubles per minute of standing beyond free_stand_time"),
          stand_kost: z.number().describe("The same as stand_cost (the reference's other spelling)"),
          free_wait_time: z.number().int().describe("Minutes the car waits for the passenger free of charge"),
          free_stand_time: z.number().int().describe("First minutes of standing not charged"),
          start_hour: z.number().int().nullable().describe("The hour (0–23, the city's clock) the rate starts; null: all day"),
          end_hour: z.number().int().nullable().describe("The hour (0–23, the city's clock) the rate ends; null: all day"),
          city_id: z.number().int().optional().describe("Its city; present only when city_id was not asked"),
          min_fare: z.number().describe("The least a trip costs, roubles"),
          pick_up: z.number().describe("The pick-up price, roubles"),
        }),
      )
      .describe("Rates in force"),
  }),
  handle: async (input, ctx) => {
    const rates = await listRates(ctx.db, { cityId: input.city_id, serviceId: input.service_id });
    return {
      rates: rates.map((r) => ({
        id: r.id,
        name: r.name,
        service_id: r.serviceId,
        km_cost: kopecksToRoubles(r.kmCost),
        km_start: r.kmStart,
        stand_cost: kopecksToRoubles(r.standCost),
        stand_kost: kopecksToRoubles(r.standCost),
        free_wait_time: r.freeWaitTime,
        free_stand_time: r.freeStandTime,
        start_hour: r.startHour,
        end_hour: r.endHour,
        ...(input.city_id === undefined ? { city_id: r.cityId } : {}),
        min_fare: kopecksToRoubles(r.minFare),
        pick_up: kopecksToRoubles(r.pickUp),
      })),
    };
  },
});

export const streetsOperation = defineOperation({
  method: "GET",
  path: "streets",
  summary: "Streets and public places whose words begin with the pattern; without a pattern, every one of the city (or of all cities)",
  auth: true,
  input: z.object({
    pattern: p.string(100).optional().describe("The beginning of a word of the name (percent-encoded UTF-8 in a URL); without it, every street and public place").meta({ examples: ["лен"] }),
    city_id: p.string(100).optional().describe("A city's id or name; an unknown city has no streets (an empty list)"),
    limit: p.natural().optional().describe("At most this many names with a pattern (50 by default)"),
  }),
  output: z.object({ streets: z.array(z.string()).describe("Full names with their prefixes, each once").meta({ examples: [["ул. Ленина", "пр. Ленинградский"]] }) }),
  handle: async (input, ctx) => {
    let cityId: number | undefined;
    if (input.city_id !== undefined) {
      // Described as "any string": an id, or a city's name. A city we do not
      // know has no streets: an empty list, not an error (bots download the
      // list of every city they were configured with, some long gone).
      const city = /^\d+$/.test(input.city_id)
        ? (await reference(ctx.db)).cities.get(Number(input.city_id))
        : await cityByName(ctx.db, input.city_id);
      if (!city) return { streets: [] };
      cityId = city.id;
    }
    // No pattern (the bots' nightly download): the whole list, from the index in memory.
    if (input.pattern === undefined) return { streets: [...(await allStreetNames(ctx.db, cityId))] };
    const found = await searchStreets(ctx.db, { pattern: input.pattern, cityId, limit: input.limit ?? 50 });
    // Two cities may have a street of one name: list the name once.
    return { streets: [...new Set(found.map((s) => s.fullName))] };
  },
});

export const extrasOperation = defineOperation({
  method: "GET",
  path: "extras",
  summary: "Extra options of a service and queue",
  auth: true,
  input: z.object({ service_id: p.natural().optional().describe("Only this service's extras"), queue_id: p.natural().optional().describe("Only the extras of this queue") }),
  output: z.object({
    extras: z
      .array(
        z.object({
          id: z.number().int().describe("The extra's id (in extras elsewhere)"),
          name: z.string().describe("Its name").meta({ examples: ["Детское кресло"] }),
          price: z.number().describe("Its price in roubles, each"),
          allow_multiple: z.boolean().describe("true: a count above 1 is allowed"),
          is_default: z.boolean().describe("true: on by default (still to be sent explicitly in the estimate)"),
          service_id: z.number().int().describe("Its service"),
          short_name: z.string().describe("A short name for small screens"),
        }),
      )
      .describe("Extra options"),
  }),
  handle: async (input, ctx) => {
    const extras = await listExtras(ctx.db, { serviceId: input.service_id, queueId: input.queue_id });
    return {
      extras: extras.map((e) => ({ id: e.id, name: e.name, price: kopecksToRoubles(e.price), allow_multiple: e.allowMultiple, is_default: e.isDefault, service_id: e.serviceId, short_name: e.shortName })),
    };
  },
});
