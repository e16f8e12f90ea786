// A small dispatch API client for the reliability suites (real HTTP, form
// bodies like real clients), bound to one instance and key.
import { send } from "./http";

export interface DispatchReply<T = Record<string, unknown>> {
  httpStatus: number;
  status: "DONE" | "ERROR";
  response: T;
  error?: { code: string; message: string };
}

type Params = Record<string, string | number | undefined>;

function form(params: Params): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) search.append(k, String(v));
  return search.toString();
}

export function dispatchClient(base: string, apiKey: string, localAddress?: string) {
  const parse = <T,>(httpStatus: number, text: string): DispatchReply<T> => {
    const body = JSON.parse(text) as Omit<DispatchReply<T>, "httpStatus">;
    return { ...body, httpStatus };
  };
  return {
    async get<T = Record<string, unknown>>(path: string, params: Params = {}): Promise<DispatchReply<T>> {
      const r = await send(base, { method: "GET", path: `/api/${path}?${form({ api_key: apiKey, ...params })}`, localAddress, timeoutMs: 60_000 });
      return parse<T>(r.status, r.text);
    },
    async post<T = Record<string, unknown>>(path: string, params: Params = {}): Promise<DispatchReply<T>> {
      const r = await send(base, {
        method: "POST",
        path: `/api/${path}`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form({ api_key: apiKey, ...params }),
        localAddress,
        timeoutMs: 60_000,
      });
      return parse<T>(r.status, r.text);
    },
  };
}

export type DispatchClient = ReturnType<typeof dispatchClient>;

/** A price estimate's token for a short trip in the demo city. */
export async function priceToken(api: DispatchClient, house = "2"): Promise<string> {
  const r = await api.get<{ token: string }>("order/pre_cost", {
    phone: "89161234567",
    way_points: JSON.stringify([{ street: "ул. Ленина", house }, { lat: 55.78, lon: 37.6 }]),
  });
  if (r.status !== "DONE") throw new Error(`pre_cost: ${JSON.stringify(r.error)}`);
  return r.response.token;
}
