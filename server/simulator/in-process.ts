// The simulator beside the server (`npm start` with SIMULATE on, the
// default for the demo): started by server/main.ts once the server listens,
// it plays the city over HTTP against this very server, like any client.
//
// What it needs, it gets the way a deployment would hand it out, never
// through the database behind the interfaces:
//   - the dispatch API key of its passengers: a key derived from APP_SECRET
//     (HMAC, so every start has the same one), created once under the name
//     "Simulator" (revoking it in the console stops the passengers);
//   - the driver app provisioning key (derived from APP_SECRET, see
//     server/driver-app/keys.ts), with which it issues its drivers' app keys.
import { createHmac } from "node:crypto";
import { appSecret } from "../auth/secret";
import { hashApiKey, issueApiKey } from "../auth/api-keys";
import { config } from "../config";
import { db } from "../db";
import { provisioningKey } from "../driver-app/keys";
import { log } from "../log";
import { Engine, type Participant } from "./engine";
import { SimParticipant } from "./exchange";
import { provisionSimulatedParticipant, simulatedParticipantKeyFor } from "./exchange-provision";
import { Rng } from "../seed/demo/random";
import { trimEndChar } from "../text/trim";

export function simulatorApiKeyFor(secret: string): string {
  return `tk_sim_${createHmac("sha256", secret).update("taxi-dispatch/simulator/api-key/v1").digest("base64url")}`;
}

/** The simulator's dispatch API key, created if missing (a revoked one stays revoked). */
export async function ensureSimulatorApiKey(): Promise<string> {
  const key = simulatorApiKeyFor(appSecret());
  const exists = await db().apiKey.findUnique({ where: { keyHash: hashApiKey(key) }, select: { id: true } });
  if (!exists) await issueApiKey(db(), { name: "Simulator", key });
  return key;
}

/**
 * Starts the simulation against this server at host:port (over HTTPS
 * without certificate checks when the server has TLS: it talks to itself
 * on the loopback); returns a function that stops it.
 */
export async function startSimulation(listen: { host: string; port: number; scheme: "http" | "https" }): Promise<() => Promise<void>> {
  const cfg = config();
  const host = listen.host === "0.0.0.0" || listen.host === "::" || listen.host === "" ? "127.0.0.1" : listen.host;
  const baseUrl = `${listen.scheme}://${host.includes(":") ? `[${host}]` : host}:${listen.port}`;
  const transport = { insecure: listen.scheme === "https" };
  const participant = await startParticipant(baseUrl, listen.port, transport);
  const engine = new Engine({
    baseUrl,
    transport,
    participants: participant ? [participant] : [],
    apiKey: await ensureSimulatorApiKey(),
    provisioningKey: provisioningKey(),
    drivers: cfg.SIMULATE_DRIVERS,
    ordersPerMinute: cfg.SIMULATE_ORDERS_PER_MINUTE,
    speedUp: cfg.SIMULATE_SPEEDUP,
    seed: cfg.SIMULATE_SEED,
    cityKm: cfg.SIMULATE_CITY_KM,
    hintFollowShare: cfg.SIMULATE_HINT_FOLLOW,
    reportEveryMinutes: 5,
    log: (line) => log.info(line),
  });
  const running = (async () => {
    try {
      await engine.setup();
      await engine.run();
    } catch (error) {
      log.warn("simulator stopped", { message: error instanceof Error ? error.message : String(error) });
    }
  })();
  return async () => {
    engine.stop();
    await Promise.race([running, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    await participant?.close();
  };
}

/** Whether EXCHANGE_URL is this very server's exchange (then the simulator may provision a participant on it). */
function ownExchange(exchangeUrl: string | undefined, port: number): boolean {
  if (!exchangeUrl) return false;
  try {
    const url = new URL(exchangeUrl);
    const publicUrl = config().PUBLIC_URL;
    const ours = publicUrl !== undefined && new URL(publicUrl).host === url.host;
    const loopback = ["localhost", "127.0.0.1", "[::1]", "::1"].includes(url.hostname) && Number(url.port || (url.protocol === "https:" ? 443 : 80)) === port;
    return (ours || loopback) && trimEndChar(url.pathname, "/") === "/exchange";
  } catch {
    return false;
  }
}

/**
 * The second exchange participant: only when our dispatch trades on this
 * server's own exchange (EXCHANGE_URL and EXCHANGE_CLIENT_KEY set to it),
 * else there is nobody to trade with.
 */
async function startParticipant(baseUrl: string, port: number, transport: { insecure: boolean }): Promise<(Participant & { close: () => Promise<void> }) | undefined> {
  const cfg = config();
  if (cfg.SIMULATE_EXCHANGE_ORDERS_PER_MINUTE <= 0) return undefined;
  if (!ownExchange(cfg.EXCHANGE_URL, port) || !cfg.EXCHANGE_CLIENT_KEY) {
    log.info("simulator: no second exchange participant (our dispatch trades on no exchange of this server: EXCHANGE_URL, EXCHANGE_CLIENT_KEY)");
    return undefined;
  }
  const clientKey = simulatedParticipantKeyFor(appSecret());
  const participant = new SimParticipant({
    exchangeUrl: `${baseUrl}/exchange`,
    clientKey,
    sellPerMinute: cfg.SIMULATE_EXCHANGE_ORDERS_PER_MINUTE,
    rng: new Rng(cfg.SIMULATE_SEED).fork("exchange-participant"),
    transport,
  });
  const url = await participant.listen("127.0.0.1", 0);
  await provisionSimulatedParticipant(db(), { serverUrl: url, clientKey });
  log.info("simulator: second exchange participant", { url });
  return participant;
}
