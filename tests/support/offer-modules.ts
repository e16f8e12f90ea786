// The modules the offer batches' unit files drive (server/dispatch/offer-batch.ts
// and what its statements go through), imported once the file's database is
// open: they read the configuration when first imported.
export interface OfferModules {
  db: typeof import("@/server/db");
  sql: typeof import("@/server/db/sql");
  batch: typeof import("@/server/dispatch/offer-batch");
}

export async function offerModules(): Promise<OfferModules> {
  // the moves' subscribers (notifications, bonuses, the exchange), as the server registers them
  await import("@/server/subscribers");
  return { db: await import("@/server/db"), sql: await import("@/server/db/sql"), batch: await import("@/server/dispatch/offer-batch") };
}
