// What to tell the operator about a failed call: the server's readable
// message (already in the console's language), or a network notice.
import { TRPCClientError } from "@trpc/client";
import type { ConsoleStrings } from "@/shared/i18n/console";

export interface ClientErrorInfo {
  message: string;
  /** tRPC's code: CONFLICT, FORBIDDEN, UNAUTHORIZED... */
  code: string | null;
  /** The domain code (server/errors.ts) when a service refused. */
  domainCode: string | null;
}

export function errorInfo(error: unknown, t: ConsoleStrings): ClientErrorInfo {
  if (error instanceof TRPCClientError) {
    const data = (error.data ?? null) as { code?: string; domainCode?: string | null } | null;
    const code = data?.code ?? null;
    const network = !data && /fetch|network|load failed/i.test(error.message);
    return { message: network ? t.errors.network : error.message || t.errors.generic, code, domainCode: data?.domainCode ?? null };
  }
  if (error instanceof Error) return { message: error.message || t.errors.generic, code: null, domainCode: null };
  return { message: t.errors.generic, code: null, domainCode: null };
}
