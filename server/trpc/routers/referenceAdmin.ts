// Reference data for administrators: services, regions, rates, extras,
// streets, drivers, the phone blacklist. A thin adapter over
// server/console/reference-admin.ts; every mutation is audited by the
// procedure and forgets the caches it touched.
import { z } from "zod";
import { adminProcedure, createTRPCRouter } from "../init";
import { listCities } from "../../console/reference";
import {
  addHouses,
  addStreet,
  addToBlacklist,
  listBlacklist,
  listDriversAdmin,
  listExtrasAdmin,
  listRatesAdmin,
  listRegionsAdmin,
  listServicesAdmin,
  removeFromBlacklist,
  saveDriver,
  saveExtra,
  saveRate,
  saveRegion,
  saveService,
  searchStreetsAdmin,
  setDriverActive,
  streetDetails,
  issueDriverKey,
} from "../../console/reference-admin";
import { MAX_POLYGON_POINTS } from "../../../shared/geometry/polygon";
import { config } from "../../config";
import { rateFieldsSchema, rateKindSchema } from "../../pricing/rate-shape";

const id = z.number().int().positive();
const text = (max: number) => z.string().trim().max(max);
const name = text(100).min(1);
/** kopecks */
const money = z.number().int().min(0).max(100_000_000);
const lat = z.number().min(-90).max(90);
const lon = z.number().min(-180).max(180);

const houses = z
  .array(z.object({ number: text(20).min(1), lat: lat.optional(), lon: lon.optional() }))
  .max(500);

export const referenceAdminRouter = createTRPCRouter({
  cities: adminProcedure.query(({ ctx }) => listCities(ctx.db)),

  /** The map tiles' URL template (MAP_TILE_URL); empty: the plain base map. */
  tileUrl: adminProcedure.query(() => config().MAP_TILE_URL.trim()),

  services: adminProcedure.query(({ ctx }) => listServicesAdmin(ctx.db)),

  saveService: adminProcedure
    .meta({ entity: "service" })
    .input(
      z.object({
        id: id.optional(),
        cityId: id,
        name,
        nameEn: name,
        description: text(500).default(""),
        sortOrder: z.number().int().min(-1000).max(1000).default(0),
        carClass: z.number().int().min(1).max(9).default(1),
        active: z.boolean().default(true),
      }),
    )
    .mutation(({ ctx, input }) => saveService(ctx.db, input)),

  regions: adminProcedure.input(z.object({ cityId: id.optional() })).query(({ ctx, input }) => listRegionsAdmin(ctx.db, input)),

  saveRegion: adminProcedure
    .meta({ entity: "region" })
    .input(
      z.object({
        id: id.optional(),
        cityId: id,
        name,
        nameEn: name,
        polygon: z.array(z.tuple([lat, lon])).min(3).max(MAX_POLYGON_POINTS),
      }),
    )
    .mutation(({ ctx, input }) => saveRegion(ctx.db, input)),

  rates: adminProcedure.input(z.object({ serviceId: id.optional() })).query(({ ctx, input }) => listRatesAdmin(ctx.db, input)),

  saveRate: adminProcedure
    .meta({ entity: "rate" })
    .input(
      z.object({
        id: id.optional(),
        serviceId: id,
        queueId: id.nullable().default(null),
        name,
        isBasic: z.boolean().default(false),
        kind: rateKindSchema.default("FIXED"),
        ...rateFieldsSchema.shape,
      }),
    )
    .mutation(({ ctx, input }) => saveRate(ctx.db, input)),

  extras: adminProcedure.input(z.object({ serviceId: id.optional() })).query(({ ctx, input }) => listExtrasAdmin(ctx.db, input)),

  saveExtra: adminProcedure
    .meta({ entity: "extra" })
    .input(
      z.object({
        id: id.optional(),
        serviceId: id,
        queueId: id.nullable().default(null),
        code: text(30).regex(/^[A-Za-z0-9_]+$/),
        name,
        nameEn: name,
        shortName: text(10).default(""),
        price: money,
        allowMultiple: z.boolean().default(false),
        isDefault: z.boolean().default(false),
      }),
    )
    .mutation(({ ctx, input }) => saveExtra(ctx.db, input)),

  streets: adminProcedure
    .input(z.object({ q: text(100).min(1), cityId: id.optional(), limit: z.number().int().min(1).max(100).default(30) }))
    .query(({ ctx, input }) => searchStreetsAdmin(ctx.db, input)),

  street: adminProcedure.input(z.object({ id })).query(({ ctx, input }) => streetDetails(ctx.db, input.id)),

  addStreet: adminProcedure
    .meta({ entity: "street" })
    .input(
      z.object({
        cityId: id,
        kind: z.enum(["STREET", "PUBLIC_PLACE"]),
        prefix: text(20).default(""),
        name: text(200).min(1),
        lat,
        lon,
        houses,
      }),
    )
    .mutation(({ ctx, input }) => addStreet(ctx.db, input)),

  addHouses: adminProcedure
    .meta({ entity: "street" })
    .input(z.object({ streetId: id, houses: houses.min(1) }))
    .mutation(({ ctx, input }) => addHouses(ctx.db, input)),

  drivers: adminProcedure
    .input(z.object({ q: text(50).optional(), active: z.boolean().optional(), cursor: id.nullish(), limit: z.number().int().min(10).max(500).default(100) }))
    .query(({ ctx, input }) => listDriversAdmin(ctx.db, input)),

  saveDriver: adminProcedure
    .meta({ entity: "driver" })
    .input(
      z.object({
        id: id.optional(),
        cityId: id,
        callSign: text(30).min(1).regex(/^[\p{L}\p{N}_-]+$/u),
        firstName: name,
        lastName: text(100).default(""),
        middleName: text(100).default(""),
        phone: text(30).min(5),
        permitNumber: text(50).default(""),
        serviceIds: z.array(id).max(20).default([]),
        car: z
          .object({
            brand: text(50).min(1),
            model: text(50).min(1),
            color: text(30).min(1),
            regNumber: text(20).min(1),
            year: z.number().int().min(1950).max(2100).nullable().default(null),
            carClass: z.number().int().min(1).max(9).default(1),
          })
          .nullable()
          .default(null),
      }),
    )
    .mutation(({ ctx, input }) => saveDriver(ctx.db, input)),

  setDriverActive: adminProcedure
    .meta({ entity: "driver" })
    .input(z.object({ driverId: id, active: z.boolean() }))
    .mutation(({ ctx, input }) => setDriverActive(ctx.db, input)),

  /** A new driver app key (shown once); the driver's old key stops working. */
  issueDriverKey: adminProcedure
    .meta({ entity: "driver" })
    .input(z.object({ driverId: id }))
    .mutation(({ ctx, input }) => issueDriverKey(ctx.db, input)),

  blacklist: adminProcedure.input(z.object({ q: text(30).optional() })).query(({ ctx, input }) => listBlacklist(ctx.db, input)),

  blacklistAdd: adminProcedure
    .meta({ entity: "blacklist" })
    .input(z.object({ phone: text(30).min(5), reason: text(300).default("") }))
    .mutation(({ ctx, input }) => addToBlacklist(ctx.db, input)),

  blacklistRemove: adminProcedure
    .meta({ entity: "blacklist" })
    .input(z.object({ phone: text(30).min(5) }))
    .mutation(({ ctx, input }) => removeFromBlacklist(ctx.db, input)),
});
