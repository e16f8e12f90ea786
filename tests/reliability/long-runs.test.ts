// Long runs of one character in every string parameter: a request whose
// value is thousands of one punctuation character must cost about what a
// normal request does. A regular expression that backtracks super-linearly
// on request data (as /^\/+|\/+$/ on a path of slashes did) shows up here as
// a request that takes many times longer than its neighbour with a short
// value; the lint rule (eslint-plugin-regexp) catches the patterns, this
// catches the behaviour wherever it comes from.
//
// Surfaces: each dispatch API operation's parameters (query for GET, form
// body for POST), each exchange operation's data fields and its drivers
// filter, paths under every protocol, and the console's sign-in form.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { OPERATIONS } from "@/server/dispatch-api/operations";
import { EXCHANGE_OPERATIONS } from "@/server/exchange-api/operations";
import { startReceiver, type Receiver } from "../support/exchange/receiver";
import type { TestDatabase } from "./support/db";
import { addExchangeParticipants } from "./support/exchange";
import { closeAgents, send, type RawRequest } from "./support/http";
import { freshDatabase, startInstance, template, type AppInstance } from "./support/instance";

/** Characters whose runs trip naive patterns: separators, escapes, wildcards, quotes, space. */
const RUN_CHARACTERS = ["/", "\\", "%", ".", ",", ";", "-", "_", "+", "*", "(", "[", "{", '"', "'", " ", ":", "=", "&", "#", "9", "а"];
/** In a URL (Node caps a request head at 16 KiB) and in a body. */
const URL_RUN = 6_000;
const BODY_RUN = 120_000;
/** A request may cost this many times its normal neighbour (plus a floor for the machine's noise). */
const MAX_FACTOR = 15;
const FLOOR_MS = 300;

let database: TestDatabase;
let app: AppInstance;
let receiver: Receiver;
let exchangeToken = "";

beforeAll(async () => {
  receiver = await startReceiver();
  database = await freshDatabase();
  await database.use(async (prisma) => {
    exchangeToken = (await addExchangeParticipants(prisma, ["Long runs"], receiver.url))[0]!.token;
  });
  app = await startInstance(database, { env: { RATE_LIMIT_PER_KEY: "0", RATE_LIMIT_PER_ADDRESS: "0" } });
}, 300_000);

afterAll(async () => {
  closeAgents();
  await app?.stop();
  await receiver?.stop();
  await database?.drop();
});

async function cost(request: RawRequest): Promise<number> {
  const reply = await send(app.url, { localAddress: "127.0.0.1", timeoutMs: 60_000, ...request });
  expect(reply.status, `${request.method} ${request.path.slice(0, 80)}: ${reply.text.slice(0, 200)}`).toBeLessThan(500);
  return reply.ms;
}

/** The cheapest of a few tries: what the work costs, without the shared machine's noise. */
async function cheapest(request: RawRequest, tries = 2): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < tries; i++) best = Math.min(best, await cost(request));
  return best;
}

/** Stands for mixed characters in `run`: the control of the same length. */
const MIXED = "mixed";

/** `n` of one character between two others ("x////...////!"), or `n` mixed characters for MIXED. */
const run = (char: string, n: number) => `x${char === MIXED ? "Xx0".repeat(Math.ceil(n / 3)).slice(0, n) : char.repeat(n)}!`;

/** The limit a request may cost, from what a normal one costs. */
const limitOf = (base: number) => Math.max(base * MAX_FACTOR, base + FLOOR_MS);

/**
 * Fails the case when the long request costs more than a small multiple of
 * the normal one. A request over the limit is measured again beside a value
 * of the same length made of mixed characters ("Xx0" repeated), whose cost is
 * what the length itself costs (storing 120 KB, say): a run must be over the
 * limit of the normal value and of the mixed one, the cheapest of three tries
 * each, taken in turn. A busy machine's pause (a collection, another lane's
 * burst) slows every request of the moment, so it no longer fails the case;
 * backtracking over a run of one character is still many times either.
 */
async function compare(what: string, normal: RawRequest, long: (char: string) => RawRequest, slow: string[]): Promise<void> {
  const base = await cheapest(normal);
  for (const char of RUN_CHARACTERS) {
    // A run between two other characters: a pattern that backtracks over the run needs a rejecting suffix.
    const request = long(char);
    if ((await cost(request)) <= limitOf(base)) continue;
    const mixed = long(MIXED);
    let again = Infinity;
    let normalAgain = Infinity;
    let mixedAgain = Infinity;
    for (let i = 0; i < 3; i++) {
      normalAgain = Math.min(normalAgain, await cost(normal));
      mixedAgain = Math.min(mixedAgain, await cost(mixed));
      again = Math.min(again, await cost(request));
    }
    if (again > limitOf(Math.max(normalAgain, mixedAgain))) {
      slow.push(`${what} with a run of ${JSON.stringify(char)}: ${Math.round(again)} ms (normal ${Math.round(normalAgain)} ms, mixed of the same length ${Math.round(mixedAgain)} ms)`);
    }
  }
}

const form = (params: Record<string, string>) => new URLSearchParams(params).toString();
const shapeOf = (schema: z.ZodType) => (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};

describe("long runs of one character cost about what a normal value does", () => {
  it("dispatch API: every parameter of every operation", async () => {
    const apiKey = template().apiKey;
    const slow: string[] = [];
    for (const op of OPERATIONS) {
      for (const name of Object.keys(shapeOf(op.input))) {
        if (name === "api_key") continue;
        const request = (value: string): RawRequest =>
          op.method === "GET"
            ? { method: "GET", path: `/api/${op.path}?${form({ api_key: apiKey, [name]: value })}` }
            : { method: "POST", path: `/api/${op.path}`, headers: { "content-type": "application/x-www-form-urlencoded" }, body: form({ api_key: apiKey, [name]: value }) };
        const length = op.method === "GET" ? URL_RUN : BODY_RUN;
        await compare(`${op.method} /api/${op.path} ${name}`, request("abc"), (char) => request(run(char, length)), slow);
      }
      // The key itself.
      await compare(`${op.method} /api/${op.path} api_key`, { method: "GET", path: `/api/${op.path}?api_key=abc` }, (char) => ({ method: "GET", path: `/api/${op.path}?${form({ api_key: run(char, URL_RUN) })}` }), slow);
    }
    expect(slow, slow.join("\n")).toEqual([]);
  });

  it("exchange API: data fields of every operation, and the drivers filter", async () => {
    const slow: string[] = [];
    const post = (path: string, data: unknown): RawRequest => ({
      method: "POST",
      path: `/exchange/${path}`,
      headers: { "content-type": "application/json", authorization: `Bearer ${exchangeToken}` },
      body: JSON.stringify({ data, meta: { token: exchangeToken } }),
    });
    for (const op of EXCHANGE_OPERATIONS.filter((o) => o.method === "POST")) {
      const path = op.path.replace(/:[a-z]+/gi, "1");
      for (const field of ["id", "orderId", "reason", "status", "key"]) {
        await compare(`POST /exchange/${path} data.${field}`, post(path, { [field]: "abc" }), (char) => post(path, { [field]: run(char, BODY_RUN) }), slow);
      }
    }
    for (const word of ["like", "contains", "startsWith", "endsWith", "equals"]) {
      const filter = (value: string) => post("drivers", { where: { callSign: { [word]: value } } });
      await compare(`POST /exchange/drivers where.callSign.${word}`, filter("abc"), (char) => filter(run(char, BODY_RUN)), slow);
    }
    for (const op of EXCHANGE_OPERATIONS.filter((o) => o.method === "GET" && o.path.includes(":"))) {
      const get = (id: string): RawRequest => ({ method: "GET", path: `/exchange/${op.path.replace(/:[a-z]+/gi, encodeURIComponent(id))}`, headers: { authorization: `Bearer ${exchangeToken}` } });
      await compare(`GET /exchange/${op.path}`, get("abc"), (char) => get(run(char, URL_RUN / 3)), slow);
    }
    expect(slow, slow.join("\n")).toEqual([]);
  });

  it("paths under every protocol, and the console's sign-in form", async () => {
    const slow: string[] = [];
    for (const prefix of ["/api/", "/exchange/", "/participant/", "/driver-app/", "/", "/api/trpc/", "/panel/"]) {
      const at = (tail: string): RawRequest => ({ method: "GET", path: `${prefix}${tail}` });
      await compare(`GET ${prefix}...`, at("abc"), (char) => at(encodeURIComponent(char).repeat(Math.floor(URL_RUN / encodeURIComponent(char).length))), slow);
      // Raw runs of the characters a request line may carry as they are.
      for (const char of ["/", ".", "\\", ";", ","]) {
        const base = await cheapest(at("abc"));
        const took = await cheapest(at(`x${char.repeat(12_000)}y`));
        if (took > limitOf(base)) slow.push(`GET ${prefix} with ${char} x 12000 raw: ${Math.round(took)} ms (normal ${Math.round(base)} ms)`);
      }
    }
    const signIn = (value: string): RawRequest => ({ method: "POST", path: "/api/auth/callback/credentials", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form({ email: value, password: value, csrfToken: "x" }) });
    await compare("sign-in form", signIn("abc"), (char) => signIn(run(char, BODY_RUN)), slow);
    expect(slow, slow.join("\n")).toEqual([]);
  });
});
