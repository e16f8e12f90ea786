// Session, version, profiles and the driver calls of the exchange API.
import { z } from "zod";
import { config } from "../../config";
import { idText } from "../../exchange/attributes";
import { carClasses, carOptions, findDrivers, getDriver, updateDriverState } from "../../exchange/drivers";
import { listProfiles } from "../../exchange/participants";
import { openSession } from "../../exchange/sessions";
import { discoverAfterLogin } from "../../exchange/sync";
import { defineExchangeOperation, EXCHANGE_API_VERSION } from "../define";

const driver = z.object({
  id: z.string(),
  callSign: z.string(),
  name: z.string(),
  phone: z.string(),
  registrationNumber: z.string(),
  brand: z.string(),
  model: z.string(),
  modelCode: z.string(),
  color: z.string(),
  colorCode: z.string(),
  carage: z.string(),
  connectBy: z.string(),
  carClass: z.number().int(),
  options: z.array(z.number().int()),
});

export const version = defineExchangeOperation({
  method: "GET",
  path: "version",
  summary: "The API version",
  auth: false,
  source: "none",
  input: z.object({}),
  output: z.object({ jsonapi: z.object({ version: z.string() }) }),
  handle: async () => ({ jsonapi: { version: EXCHANGE_API_VERSION } }),
});

export const session = defineExchangeOperation({
  method: "POST",
  path: "session",
  summary: "Log in with the client key; the token is bound to the calling server",
  auth: false,
  source: "data",
  input: z.object({ key: z.string("string (the client key)") }),
  output: z.object({ data: z.object({ token: z.string(), slaves: z.string(), trusted: z.string() }) }),
  handle: async (input, ctx) => {
    const opened = await openSession(ctx.db, input.key, ctx.remoteAddress);
    // Its services and drivers are read now, not at the next periodic check.
    discoverAfterLogin(ctx.db, opened.serverId);
    const cfg = config();
    return { data: { token: opened.token, slaves: cfg.EXCHANGE_SLAVES, trusted: cfg.EXCHANGE_TRUSTED } };
  },
});

export const profiles = defineExchangeOperation({
  method: "GET",
  path: "profiles",
  summary: "The participants' exchange profiles",
  auth: true,
  source: "none",
  input: z.object({}),
  output: z.object({
    data: z.object({
      profiles: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          details: z.string(),
          email: z.string(),
          phone: z.string(),
          country: z.object({ name: z.object({ en: z.string(), ru: z.string() }) }),
          location: z.object({ name: z.object({ en: z.string(), ru: z.string() }), lat: z.number(), lon: z.number() }),
          currency: z.object({ code: z.string() }),
        }),
      ),
    }),
  }),
  handle: async (_input, ctx) => ({ data: { profiles: await listProfiles(ctx.db) } }),
});

export const driverClasses = defineExchangeOperation({
  method: "GET",
  path: "drivers/classes",
  summary: "Car classes",
  auth: true,
  source: "none",
  input: z.object({}),
  output: z.object({
    data: z.object({
      classes: z.array(
        z.object({
          id: z.string(),
          name: z.record(z.string(), z.string()),
          cars: z.array(z.unknown()),
        }),
      ),
    }),
  }),
  handle: async (_input, ctx) => ({ data: { classes: await carClasses(ctx.db) } }),
});

export const driverOptions = defineExchangeOperation({
  method: "GET",
  path: "drivers/options",
  summary: "Car options",
  auth: true,
  source: "none",
  input: z.object({}),
  output: z.object({
    data: z.object({ options: z.array(z.object({ id: z.string(), name: z.string(), type: z.string(), access: z.string() })) }),
  }),
  handle: async (_input, ctx) => ({ data: { options: await carOptions(ctx.db) } }),
});

export const driverById = defineExchangeOperation({
  method: "GET",
  path: "drivers/:id",
  summary: "One driver by the exchange's id",
  auth: true,
  source: "none",
  input: z.object({}),
  output: z.object({ data: z.object({ driver }) }),
  handle: async (_input, ctx) => {
    if (!ctx.caller) throw new Error("drivers/:id without a caller");
    return { data: { driver: await getDriver(ctx.db, ctx.caller, ctx.params.id ?? "") } };
  },
});

export const drivers = defineExchangeOperation({
  method: "POST",
  path: "drivers",
  summary: "Drivers by a waterline-style filter query",
  auth: true,
  source: "criteria",
  input: z.unknown(),
  // select/omit may leave fields out; the id is always there
  output: z.object({ data: z.object({ drivers: z.array(driver.partial().required({ id: true })) }) }),
  handle: async (input, ctx) => {
    if (!ctx.caller) throw new Error("drivers without a caller");
    return { data: { drivers: await findDrivers(ctx.db, ctx.caller, input) } };
  },
});

export const driverUpdate = defineExchangeOperation({
  method: "POST",
  path: "driver/update",
  summary: "A participant's driver reports its state (position, status)",
  auth: true,
  source: "data",
  input: z.object({ id: idText, attributes: z.record(z.string(), z.unknown(), "object (driver state)") }),
  output: z.object({ data: z.object({ id: z.string() }) }),
  handle: async (input, ctx) => {
    if (!ctx.caller) throw new Error("driver/update without a caller");
    return { data: await updateDriverState(ctx.db, ctx.caller, input) };
  },
});
