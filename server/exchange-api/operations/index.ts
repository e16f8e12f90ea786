// Every operation of the exchange API, in the order of the reference.
import type { ExchangeOperation } from "../define";
import { driverById, driverClasses, driverOptions, drivers, driverUpdate, profiles, session, version } from "./general";
import { cancel, complete, get, register, rejectdriver, revoke, take, update } from "./orders";

export const EXCHANGE_OPERATIONS = [
  driverClasses,
  driverOptions,
  driverById,
  drivers,
  profiles,
  driverUpdate,
  session,
  register,
  get,
  cancel,
  complete,
  revoke,
  rejectdriver,
  take,
  update,
  version,
] as unknown as ExchangeOperation[];
