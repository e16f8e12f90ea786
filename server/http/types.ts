// A protocol-neutral request and reply, so that one handler serves both the
// custom Node server (fast path) and Next's route files.

export interface ApiRequest {
  method: string;
  /** Path below the protocol's prefix, without leading or trailing slash. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | undefined>;
  body: Buffer;
  /** Network address of the caller, as the socket saw it. */
  remoteAddress: string;
  /** Set when the body was larger than the limit (it was not read). */
  bodyTooLarge?: boolean;
  /** Set by the protocol's router once it knows the operation (server/metrics/http.ts labels by it). */
  operation?: string;
  /** Gives the request's admission place back for a wait that does no work (server/http/load-shed.ts). */
  yieldAdmission?: () => void;
}

export interface ApiResponse {
  status: number;
  headers?: Record<string, string>;
  body: string;
  /**
   * A streamed reply (server-sent events): after the head, `stream` writes
   * chunks until it resolves or the client goes away (`signal`); `body` is
   * written first.
   */
  stream?: (write: (chunk: string) => void, signal: AbortSignal) => Promise<void>;
}

export type ApiHandler = (request: ApiRequest) => Promise<ApiResponse>;

/** Bodies above this are refused without being read. */
export const MAX_BODY_BYTES = 256 * 1024;

export function jsonResponse(status: number, value: unknown, headers: Record<string, string> = {}): ApiResponse {
  return {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
    body: JSON.stringify(value),
  };
}

