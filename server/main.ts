// `npm start` / `npm run dev`: validate the configuration, build the app if
// needed, migrate and seed the database, then serve. A custom Node server:
// the public APIs (/api, /exchange, /participant, /driver-app) and the
// console's tRPC (/api/trpc) are served straight from their handler modules
// (in development too), everything else goes to Next's request handler.
import "./runtime/node-version";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import next from "next";
import { config, ConfigError } from "./config";
import { ensureAppSecret } from "./auth/secret";
import { closeDb, connection, db, withSession } from "./db";
import { migrate } from "./db/migrate";
import { seedDatabase } from "./seed";
import { setUpDemoExchange } from "./seed/demo-exchange";
import { enableDemoDispatch } from "./dispatch/demo-rules";
import { appHandler } from "./http/app-handler";
import { createAppServers, tlsConfigured } from "./http/tls";
import { setDraining, startHealthProbe } from "./http/health";
import { warmUp } from "./runtime/warm-up";
import { startBackgroundWork } from "./background";
import { startSimulation } from "./simulator/in-process";
import { startPgRelay } from "./events/pg-relay";
import { log } from "./log";
import "./subscribers";
import { startMetricsListener } from "./metrics/endpoint";
import { startPgliteAnalyze } from "./db/analyze";
import { applyHeapGrowth } from "./runtime/heap";

/** The project's root: the nearest folder above this file with a package.json (server/ under tsx, build/server/ when built). */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, "..");
  }
}
const root = projectRoot(import.meta.dirname);

function buildIfNeeded(): void {
  if (existsSync(path.join(root, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"))) return;
  console.log("Building the application (first start)...");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) throw new Error("next build failed");
}

async function main(): Promise<void> {
  const dev = process.argv.includes("--dev");
  (process.env as Record<string, string | undefined>).NODE_ENV ??= dev ? "development" : "production";
  const cfg = config();
  applyHeapGrowth(cfg.HEAP_GROWING_PERCENT);
  ensureAppSecret();
  const publicUrl = cfg.PUBLIC_URL ?? `${tlsConfigured(cfg) ? "https" : "http"}://localhost:${cfg.PORT}`;
  process.env.NEXTAUTH_URL ??= publicUrl;
  if (!dev) buildIfNeeded();

  const applied = await withSession((session) => migrate(session));
  if (applied.length) log.info("migrations applied", { applied });
  // Instances starting at once on one PostgreSQL: one seeds, the others wait for it
  // (and then find everything there); without the lock the seed's checks race.
  // A lock number of its own: the demo seed takes 724002 inside its transaction.
  const seeded = await withSession(async (session) => {
    await session.exec("SELECT pg_advisory_lock(724003)");
    try {
      const done = await seedDatabase(db(), {
        apiKey: cfg.SEED_API_KEY,
        adminEmail: cfg.SEED_ADMIN_EMAIL,
        adminPassword: cfg.SEED_ADMIN_PASSWORD,
        demo: cfg.SEED_DEMO,
      });
      // Under the same lock: two instances each found no demo participant, each created one and
      // posted its opening deposit under the same txn id (a unique violation that stopped the
      // second's start-up, tests/reliability/dispatch-instances.test.ts).
      if (cfg.SEED_DEMO) await setUpDemoExchange(db(), publicUrl);
      return done;
    } finally {
      await session.exec("SELECT pg_advisory_unlock(724003)");
    }
  });
  if (seeded.demoCreated && cfg.SIMULATE) await enableDemoDispatch(db());

  // Warm before accepting (docs/operations.md, "Faults"): a restart under load made the first requests wait up to 15 s.
  const warmed = await warmUp(db());
  if (warmed.failed.length) log.warn("warm-up: some parts failed (they load on first use)", { failed: warmed.failed });
  const stopHealthProbe = startHealthProbe();

  const app = next({ dev, dir: root, hostname: "localhost", port: cfg.PORT });
  await app.prepare();
  const nextHandler = app.getRequestHandler();
  const route = appHandler(nextHandler);

  // HTTP, or HTTPS plus the participants' control panel's listener when TLS
  // is configured (server/http/tls.ts, docs/panel.md).
  const servers = await createAppServers({
    db: db(),
    next: nextHandler,
    app: (req: IncomingMessage, res: ServerResponse) => {
      Promise.resolve(route(req, res)).catch((error: unknown) => {
        log.error("request failed", error);
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ status: "ERROR", error: { code: "INTERNAL", message: "Internal server error" } }));
      });
    },
  });
  const { port, panelPort } = await servers.listen();
  const metricsListener = cfg.METRICS_PORT !== undefined ? await startMetricsListener({ host: cfg.METRICS_HOST, port: cfg.METRICS_PORT, token: cfg.METRICS_TOKEN }) : undefined;
  const stopBackground = startBackgroundWork();
  const stopAnalyze = startPgliteAnalyze();
  const conn = connection();
  const stopRelay = conn.pool && cfg.DATABASE_URL ? await startPgRelay(cfg.DATABASE_URL, conn.pool) : async () => undefined;

  const url = cfg.PUBLIC_URL ?? `${servers.scheme}://localhost:${port}`;
  console.log(`\nTaxi dispatch is running at ${url}`);
  if (panelPort !== undefined) console.log(`  control panel: https://${cfg.PUBLIC_URL ? new URL(cfg.PUBLIC_URL).hostname : "localhost"}:${panelPort}/panel  (participants' certificates: npm run ca)`);
  if (servers.tls?.rootFile) console.log(`  TLS:           development set; trust ${servers.tls.rootFile}`);
  console.log(`  console:       ${url}/`);
  console.log(`  dispatch API:  ${url}/api/version  (reference: ${url}/docs)`);
  console.log(`  exchange API:  ${url}/exchange/version`);
  if (metricsListener) console.log(`  metrics:       http://${cfg.METRICS_HOST}:${metricsListener.port}/metrics`);
  else if (cfg.METRICS_TOKEN) console.log(`  metrics:       ${url}/metrics  (Authorization: Bearer METRICS_TOKEN)`);
  console.log(`  database:      ${connection().kind === "pglite" ? `embedded PGlite in ${path.resolve(cfg.DATA_DIR)}` : "PostgreSQL (DATABASE_URL)"}`);
  if (seeded.apiKey) console.log(`  API key:       ${seeded.apiKey}   (shown once; keep it)`);
  else console.log("  API key:       as created before (see the console, Settings > API keys)");
  if (seeded.admin) console.log(`  admin login:   ${seeded.admin.email} / ${seeded.admin.password}   (shown once)`);
  else console.log("  admin login:   as created before");
  // The simulated city (docs/driver-app.md): drivers and passengers through the public interfaces.
  const stopSimulation = cfg.SIMULATE ? await startSimulation({ host: cfg.HOST, port, scheme: servers.scheme }) : async () => undefined;
  if (cfg.SIMULATE) console.log(`  simulator:     ${cfg.SIMULATE_DRIVERS} drivers, ${cfg.SIMULATE_ORDERS_PER_MINUTE} orders/min (SIMULATE=0 turns it off)`);

  // SIGTERM drains (docs/operations.md, "Faults"): /healthz says "draining", the
  // listeners stop accepting, background work starts nothing new, the requests
  // in flight finish (up to SHUTDOWN_DRAIN_SECONDS), then the database closes.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    log.info("stopping: draining", { signal, deadlineSeconds: cfg.SHUTDOWN_DRAIN_SECONDS });
    setDraining();
    await stopSimulation().catch((error: unknown) => log.warn("stopping: simulator", error));
    metricsListener?.close();
    await Promise.all([
      servers.drain(cfg.SHUTDOWN_DRAIN_SECONDS * 1000),
      stopBackground().catch((error: unknown) => log.warn("stopping: background work", error)),
    ]);
    stopAnalyze();
    await stopRelay().catch(() => undefined);
    await stopHealthProbe();
    await closeDb();
    log.info("stopped", { signal, ms: Date.now() - started });
    log.flush();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error("Start-up failed:", error instanceof Error ? error.message : error);
  process.exit(1);
});
