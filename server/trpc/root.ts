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
});

export type AppRouter = typeof appRouter;

/** Calls procedures without HTTP: `createCaller(createContextInner({ claims }))`. */
export const createCaller = createCallerFactory(appRouter);
