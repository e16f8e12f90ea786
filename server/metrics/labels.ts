// The closed lists every label value of the request series comes from. A
// value outside them becomes "unknown" here, whatever a call site passes, so
// no refusal path (a body over the limit, a wrong method, a made-up path)
// and no future caller can turn what a client sent into a new series.
//
// Interfaces are fixed below; each one's operations are registered by the
// module that owns the registry (the protocols' routers, the console's tRPC
// router); error codes are the domain's codes, the exchange's error names,
// tRPC's codes and HTTP statuses. On globalThis: the custom server and Next's
// bundle each load their own copy of this module in one process.
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import { ERROR_CODES } from "../errors";

export const INTERFACES = ["dispatch", "exchange", "participant", "driver_app", "console", "console_http", "next"] as const;
export type MetricsInterface = (typeof INTERFACES)[number];

export const UNKNOWN = "unknown";

/** The exchange's and participant endpoints' error names (server/exchange-api/reply.ts). */
const EXCHANGE_NAMES = [
  "BadRequest", "Unauthorized", "Forbidden", "NotFound", "NotAcceptable", "Conflict", "Gone", "PayloadTooLarge",
  "TooManyRequests", "MethodNotAllowed", "EmptyRequest", "NoRequiredFieldSet", "TypeError", "ServiceUnavailable",
] as const;

const KNOWN_CODES: ReadonlySet<string> = new Set<string>([...ERROR_CODES, ...EXCHANGE_NAMES, ...Object.keys(TRPC_ERROR_CODES_BY_KEY)]);
const HTTP_STATUS = /^[1-5]\d\d$/;

const registryKey = Symbol.for("taxi.metrics.operations");
type Holder = { [registryKey]?: Map<string, Set<string>> };

function registry(): Map<string, Set<string>> {
  const holder = globalThis as Holder;
  if (!holder[registryKey]) {
    holder[registryKey] = new Map(INTERFACES.map((name) => [name, new Set<string>()]));
    // The kinds the server itself gives (server/http/console-trpc.ts, server/http/app-handler.ts).
    registerOperations("console_http", ["call", "stream"]);
    registerOperations("next", ["page", "static", "auth"]);
  }
  return holder[registryKey];
}

/** Adds an interface's operations to its closed list (called once by the module that owns them). */
export function registerOperations(iface: MetricsInterface, names: Iterable<string>): void {
  const known = registry().get(iface)!;
  for (const name of names) known.add(name);
}

export function interfaceLabel(iface: string): string {
  return (INTERFACES as readonly string[]).includes(iface) ? iface : UNKNOWN;
}

/** The operation if its interface registered it, else "unknown". */
export function operationLabel(iface: string, operation: string | undefined): string {
  if (operation === undefined) return UNKNOWN;
  return registry().get(iface)?.has(operation) ? operation : UNKNOWN;
}

/** An error code from the closed lists, an HTTP status, else "other". */
export function codeLabel(code: string): string {
  return KNOWN_CODES.has(code) || HTTP_STATUS.test(code) ? code : "other";
}

/** The registered operations (the test and docs read them). */
export function knownOperations(iface: MetricsInterface): ReadonlySet<string> {
  return registry().get(iface)!;
}
