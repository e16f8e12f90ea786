// A small client of the dispatch API for the tests: real HTTP requests.
import { inject } from "vitest";

export function baseUrl(): string {
  return inject("baseUrl");
}

export function apiKey(): string {
  return inject("apiKey");
}

export interface ApiReply<T = Record<string, unknown>> {
  httpStatus: number;
  status: "DONE" | "ERROR";
  response: T;
  error?: { code: string; message: string };
  [key: string]: unknown;
}

type Params = Record<string, string | number | undefined>;

function withKey(params: Params, key: boolean): Params {
  return key && params.api_key === undefined ? { api_key: apiKey(), ...params } : params;
}

function toSearch(params: Params): URLSearchParams {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) search.append(k, String(v));
  return search;
}

export async function apiGet<T = Record<string, unknown>>(path: string, params: Params = {}, key = true): Promise<ApiReply<T>> {
  const res = await fetch(`${baseUrl()}/api/${path}?${toSearch(withKey(params, key))}`);
  return { ...((await res.json()) as Omit<ApiReply<T>, "httpStatus">), httpStatus: res.status } as ApiReply<T>;
}

/** POST as a form, the way real clients do (api_key in the body). */
export async function apiPost<T = Record<string, unknown>>(path: string, params: Params = {}, key = true): Promise<ApiReply<T>> {
  const res = await fetch(`${baseUrl()}/api/${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: toSearch(withKey(params, key)),
  });
  return { ...((await res.json()) as Omit<ApiReply<T>, "httpStatus">), httpStatus: res.status } as ApiReply<T>;
}
