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
  input: z.object({ city_id: p.natural().optional() }),
  output: z.object({ services: z.array(z.object({ id: z.number().int(), name: z.string(), city_id: z.number().int().optional() })) }),
  handle: async (input, ctx) => {
    const services = await listActiveServices(ctx.db, input.city_id);
    return { services: services.map((s) => (input.city_id !== undefined ? { id: s.id, name: s.name } : { id: s.id, name: s.name, city_id: s.cityId })) };
  },
});

const region = z.object({ id: z.number().int(), name: z.string() });

export const regionsOperation = defineOperation({
  method: "GET",
  path: "regions",
  summary: "Regions (parking areas), by service and city",
  auth: true,
  input: z.object({ service_id: p.natural().optional(), city_id: p.natural().optional() }),
  output: z.object({ regions: z.array(region) }),
  handle: async (input, ctx) => ({
    regions: await listRegions(ctx.db, { cityId: input.city_id, serviceId: input.service_id }),
  }),
});

export const regionByAddressOperation = defineOperation({
  method: "GET",
  path: "region_by_address",
  summary: "The region of an address (street with prefix, house)",
  auth: true,
  input: z.object({ street: p.string(200), house: p.string(50).optional(), city_id: p.natural().optional() }),
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
  input: z.object({ lat: p.latitude(), lon: p.longitude(), city_id: p.natural().optional() }),
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
  input: z.object({ city_id: p.natural().optional(), service_id: p.natural().optional() }),
  output: z.object({
    rates: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        service_id: z.number().int(),
        km_cost: z.number(),
        km_start: z.number().int(),
        stand_cost: z.number(),
        stand_kost: z.number(),
        free_wait_time: z.number().int(),
        free_stand_time: z.number().int(),
        start_hour: z.number().int().nullable(),
        end_hour: z.number().int().nullable(),
        city_id: z.number().int().optional(),
        min_fare: z.number(),
        pick_up: z.number(),
      }),
    ),
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
  input: z.object({ pattern: p.string(100).optional(), city_id: p.string(100).optional(), limit: p.natural().optional() }),
  output: z.object({ streets: z.array(z.string()) }),
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
  input: z.object({ service_id: p.natural().optional(), queue_id: p.natural().optional() }),
  output: z.object({
    extras: z.array(z.object({ id: z.number().int(), name: z.string(), price: z.number(), allow_multiple: z.boolean(), is_default: z.boolean(), service_id: z.number().int(), short_name: z.string() })),
  }),
  handle: async (input, ctx) => {
    const extras = await listExtras(ctx.db, { serviceId: input.service_id, queueId: input.queue_id });
    return {
      extras: extras.map((e) => ({ id: e.id, name: e.name, price: kopecksToRoubles(e.price), allow_multiple: e.allowMultiple, is_default: e.isDefault, service_id: e.serviceId, short_name: e.shortName })),
    };
  },
});
