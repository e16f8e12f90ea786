"use client";
// Everything client components need: TanStack Query, tRPC (batched HTTP for
// queries and mutations, SSE for subscriptions), the language, notices and
// the live connection. A failed mutation always tells the operator.
import { useState, type ReactNode } from "react";
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { TRPC_MAX_BATCH_SIZE } from "@/shared/trpc-limits";
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, isTRPCClientError, splitLink } from "@trpc/client";
// superjson with the board's compact rows registered (shared/board-wire.ts).
import { superjson } from "@/shared/board-wire";
import type { AppRouter } from "@/server/trpc/root";
import { consoleStrings } from "@/shared/i18n/console";
import { TRPCProvider } from "./trpc";
import { I18nProvider, type Locale } from "./i18n";
import { Toaster, toast } from "./toast";
import { LiveProvider } from "./live";
import { errorInfo } from "./errors";
import { toSignInExpired } from "./leave";

function isUnauthorized(error: unknown): boolean {
  return isTRPCClientError(error) && (error.data as { code?: string } | undefined)?.code === "UNAUTHORIZED";
}

function toSignIn(): void {
  toSignInExpired();
}

function makeQueryClient(locale: Locale): QueryClient {
  const t = consoleStrings[locale];
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: false,
        retry: (count, error) => !isTRPCClientError(error) || (!error.data && count < 2),
      },
    },
    queryCache: new QueryCache({
      onError: (error) => {
        if (isUnauthorized(error)) toSignIn();
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => {
        if (isUnauthorized(error)) return toSignIn();
        // Mutations that show their error in place say so with meta.inlineError.
        if (mutation.meta?.inlineError) return;
        toast.error(errorInfo(error, t).message);
      },
    }),
  });
}

export function Providers({ locale, timeZone, live = true, children }: { locale: Locale; timeZone: string; live?: boolean; children: ReactNode }) {
  const [queryClient] = useState(() => makeQueryClient(locale));
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        splitLink({
          condition: (op) => op.type === "subscription",
          true: httpSubscriptionLink({ url: "/api/trpc", transformer: superjson }),
          false: httpBatchLink({ url: "/api/trpc", transformer: superjson, maxURLLength: 4000, maxItems: TRPC_MAX_BATCH_SIZE }),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <I18nProvider locale={locale} timeZone={timeZone}>
          {live ? <LiveProvider>{children}</LiveProvider> : children}
          <Toaster closeLabel={consoleStrings[locale].common.close} />
        </I18nProvider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}
