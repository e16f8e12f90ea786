// The live arm's clients, written from the interfaces' references and not
// from the server's code: a passenger's back end on the dispatch API
// (/work/shared/spec/dispatch-api.md and the habits of real clients: the
// key in the query and in the form, HTTP 200 with status DONE or ERROR) and
// a driver's phone on the driver app interface (docs/driver-app.md: a bearer
// key, JSON bodies, errors as {error: {code, message}} with an HTTP status).
// Plain fetch; nothing here imports a server module.

export class LiveCallError extends Error {
  constructor(
    readonly code: string,
    readonly httpStatus: number,
    message: string,
  ) {
    super(message);
    this.name = "LiveCallError";
  }
}

type Params = Record<string, string | number | undefined>;

function form(params: Params): URLSearchParams {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) s.append(k, String(v));
  return s;
}

/** Fetch with a deadline; a network failure becomes a LiveCallError NETWORK. */
async function call(url: string, init: RequestInit, timeoutMs = 30_000): Promise<{ status: number; body: Record<string, unknown> }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new LiveCallError("NETWORK", 0, `${init.method ?? "GET"} ${new URL(url).pathname}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await res.text();
  try {
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  } catch {
    throw new LiveCallError(`HTTP_${res.status}`, res.status, `${new URL(url).pathname}: not JSON`);
  }
}

/** A passenger's app back end: the dispatch API with an integration key. */
export class PassengerApi {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  private unwrap(path: string, reply: { status: number; body: Record<string, unknown> }): Record<string, unknown> {
    if (reply.status !== 200) throw new LiveCallError(`HTTP_${reply.status}`, reply.status, `/api/${path}: HTTP ${reply.status}`);
    if (reply.body.status === "DONE") return (reply.body.response ?? {}) as Record<string, unknown>;
    const error = (reply.body.error ?? {}) as { code?: string; message?: string };
    throw new LiveCallError(error.code ?? "ERROR", 200, `/api/${path}: ${error.code ?? ""} ${error.message ?? ""}`.trim());
  }

  async get(path: string, params: Params = {}): Promise<Record<string, unknown>> {
    return this.unwrap(path, await call(`${this.baseUrl}/api/${path}?${form({ api_key: this.apiKey, ...params })}`, { method: "GET" }));
  }

  async post(path: string, params: Params = {}): Promise<Record<string, unknown>> {
    // As real clients do: the key in the query string and again in the form.
    return this.unwrap(
      path,
      await call(`${this.baseUrl}/api/${path}?${form({ api_key: this.apiKey })}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form({ api_key: this.apiKey, ...params }).toString(),
      }),
    );
  }

  /** An estimate for two points (way_points as coordinates), then the order from its token: the flow of chat bots and apps. */
  async order(from: { lat: number; lon: number }, to: { lat: number; lon: number }, phone: string, serviceId: number): Promise<string> {
    const estimate = await this.get("order/pre_cost", {
      way_points: JSON.stringify([
        { latitude: from.lat, longitude: from.lon },
        { latitude: to.lat, longitude: to.lon },
      ]),
      phone,
      service_id: serviceId,
    });
    const made = await this.post("order", { token: String(estimate.token), moderation_required: "no", need_notify: "no", service_id: serviceId });
    return String(made.uuid);
  }

  cancel(uuid: string, reason: string): Promise<Record<string, unknown>> {
    return this.post("cancel_order", { uuid, reason });
  }
}

/** A driver's phone: the driver app interface with the driver's own key. */
export class DriverPhone {
  constructor(
    private readonly baseUrl: string,
    readonly key: string,
  ) {}

  private async request(method: "GET" | "POST", path: string, input: Params | Record<string, unknown>, timeoutMs?: number): Promise<Record<string, unknown>> {
    const url = `${this.baseUrl}/driver-app/v1/${path}`;
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}` };
    const reply =
      method === "GET"
        ? await call(`${url}?${form(input as Params)}`, { method, headers }, timeoutMs)
        : await call(url, { method, headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(input) }, timeoutMs);
    if (reply.status === 200) return reply.body;
    const error = (reply.body.error ?? {}) as { code?: string; message?: string };
    throw new LiveCallError(error.code ?? `HTTP_${reply.status}`, reply.status, `/driver-app/v1/${path}: ${error.code ?? reply.status} ${error.message ?? ""}`.trim());
  }

  get(path: string, params: Params = {}, timeoutMs?: number): Promise<Record<string, unknown>> {
    return this.request("GET", path, params, timeoutMs);
  }

  post(path: string, body: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return this.request("POST", path, body);
  }

  /**
   * The offer stream (GET /offer/stream, server-sent events) as the driver's
   * app reads it: `onEvent(name, data)` for each event until the server
   * closes the stream (after 5 minutes: the caller reconnects) or `signal`
   * aborts it. Unlike the long poll of GET /offer, an open stream holds no
   * place among the server's requests in flight once its head is written.
   */
  async stream(onEvent: (event: string, data: unknown) => void, signal: AbortSignal): Promise<void> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/driver-app/v1/offer/stream`, { headers: { authorization: `Bearer ${this.key}`, accept: "text/event-stream" }, signal });
    } catch (error) {
      throw new LiveCallError("NETWORK", 0, `GET /driver-app/v1/offer/stream: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (res.status !== 200 || !res.body) {
      await res.body?.cancel();
      throw new LiveCallError(`HTTP_${res.status}`, res.status, `GET /driver-app/v1/offer/stream: HTTP ${res.status}`);
    }
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, "\n");
        let at: number;
        while ((at = buffer.indexOf("\n\n")) !== -1) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          let event = "message";
          const data: string[] = [];
          for (const line of block.split("\n")) {
            if (line.startsWith("event:")) event = line.slice(6).trim();
            else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
          }
          if (data.length === 0) continue;
          try {
            onEvent(event, JSON.parse(data.join("\n")) as unknown);
          } catch {
            onEvent(event, data.join("\n"));
          }
        }
      }
    } catch (error) {
      if (signal.aborted) return;
      throw new LiveCallError("NETWORK", 0, `GET /driver-app/v1/offer/stream: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Issues a driver's key with the provisioning key (this phone holds the provisioning key). */
  async issue(callSign: string): Promise<string> {
    return String((await this.post("keys", { call_sign: callSign })).app_key);
  }
}
