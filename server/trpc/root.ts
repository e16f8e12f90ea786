// The console's tRPC router: one sub-router per domain.
import "../subscribers";
import { createCallerFactory, createTRPCRouter } from "./init";
import { sessionRouter } from "./routers/session";
import { ordersRouter } from "./routers/orders";
import { referenceRouter } from "./routers/reference";
import { driversRouter } from "./routers/drivers";
import { adminRouter } from "./routers/admin";
import { liveRouter } from "./routers/live";
import { mapRouter } from "./routers/map";
import { balancesRouter } from "./routers/balances";
import { referenceAdminRouter } from "./routers/referenceAdmin";
import { exchangeDeskRouter } from "./routers/exchangeDesk";
import { certificatesRouter } from "./routers/certificates";
import { dispatchRouter } from "./routers/dispatch";
import { reportsRouter } from "./routers/reports";
import { smsRouter } from "./routers/sms";
import { ratingsRouter } from "./routers/ratings";
import { shiftRouter } from "./routers/shift";
import { messagesRouter } from "./routers/messages";
import { meterRouter } from "./routers/meter";
import { phoneRouter } from "./routers/phone";
import { clientsRouter } from "./routers/clients";
import { registerOperations } from "../metrics/labels";

export const appRouter = createTRPCRouter({
  session: sessionRouter,
  orders: ordersRouter,
  reference: referenceRouter,
  drivers: driversRouter,
  admin: adminRouter,
  live: liveRouter,
  map: mapRouter,
  balances: balancesRouter,
  referenceAdmin: referenceAdminRouter,
  exchangeDesk: exchangeDeskRouter,
  certificates: certificatesRouter,
  dispatch: dispatchRouter,
  reports: reportsRouter,
  sms: smsRouter,
  ratings: ratingsRouter,
  shift: shiftRouter,
  messages: messagesRouter,
  meter: meterRouter,
  phone: phoneRouter,
  clients: clientsRouter,
});

// The procedures' names, the console's closed list of metrics labels (server/trpc/init.ts measures them).
registerOperations(
  "console",
  Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>).map(([path, p]) => (p._def.type === "subscription" ? `subscription ${path}` : path)),
);

export type AppRouter = typeof appRouter;

/** Calls procedures without HTTP: `createCaller(createContextInner({ claims }))`. */
export const createCaller = createCallerFactory(appRouter);
