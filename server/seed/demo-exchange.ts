// The demo's exchange: unless EXCHANGE_URL names another exchange, this
// instance is its own exchange too, and our dispatch server trades on it as
// the participant "Наше такси" beside the seeded demo participants. The client
// key is derived from the app secret, so restarts agree without storing it.
import { createHmac } from "node:crypto";
import { config } from "../config";
import type { Db } from "../db";
import { appSecret } from "../auth/secret";
import { seedExchange } from "./exchange";
import { allowDemoLoopback } from "../http/outgoing";

export async function setUpDemoExchange(db: Db, publicUrl: string): Promise<void> {
  const cfg = config();
  if (!cfg.DEMO_EXCHANGE || cfg.EXCHANGE_URL) return;
  const clientKey = cfg.EXCHANGE_CLIENT_KEY ?? `demo-${createHmac("sha256", appSecret()).update("demo exchange client key").digest("base64url")}`;
  cfg.EXCHANGE_URL = `${publicUrl}/exchange`;
  // Let money flow both ways in the demo: orders nobody took are sold.
  if (process.env.EXCHANGE_SELL_AFTER_MINUTES === undefined) cfg.EXCHANGE_SELL_AFTER_MINUTES = 5;
  cfg.EXCHANGE_CLIENT_KEY = clientKey;
  process.env.EXCHANGE_URL = cfg.EXCHANGE_URL;
  process.env.EXCHANGE_CLIENT_KEY = clientKey;
  // The exchange and its participants live on this machine: our participant
  // client calls it, and it checks its participants, over loopback.
  allowDemoLoopback(cfg);
  await seedExchange(db, { publicUrl, clientKey });
}
