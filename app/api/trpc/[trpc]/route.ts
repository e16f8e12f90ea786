// The console's tRPC endpoint: queries, mutations and SSE subscriptions.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/trpc/root";
import { createTrpcContext } from "@/server/trpc/context";
import { TRPC_MAX_BATCH_SIZE } from "@/shared/trpc-limits";

export const dynamic = "force-dynamic";

function handler(req: Request): Promise<Response> {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    maxBatchSize: TRPC_MAX_BATCH_SIZE,
    createContext: () => createTrpcContext(req),
  });
}

export { handler as GET, handler as POST };
