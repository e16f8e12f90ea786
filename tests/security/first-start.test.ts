// A newcomer's first start, exactly as README says: `npm start` in the
// checkout, which runs scripts/start.mjs on the Node.js that npm installed,
// with nothing set but what a newcomer's shell has (PATH, HOME, the locale)
// and, here, a fresh DATA_DIR and a free PORT (on the PostgreSQL run a fresh
// DATABASE_URL, what a newcomer with PostgreSQL sets). No OUTGOING_ALLOW, no
// LOG_LEVEL, no LANGUAGE, no HOST, none of the launcher's suite defaults
// (tests/support/server.ts), none of npm's or vitest's variables: the other
// suites set OUTGOING_ALLOW for their receivers, which is how the demo's own
// exchange stayed broken unnoticed (its loopback allowance was computed from
// EXCHANGE_URL being unset, which the demo itself sets before the first call).
//
// The build must be current before the test (npm test builds it first; a
// lone run: `npx next build && node scripts/build-server.mjs`): start.mjs
// would otherwise build it itself, which takes minutes and would race the
// other lanes of `npm test` over the one .next folder. The test refuses a
// stale build with that message instead, and checks that start.mjs built
// nothing (what a newcomer with a current build gets).
//
// Checked, on every byte the process group writes from its first one: no
// line at warn or error level, nothing at all on stderr (the server's warn
// and error lines go there, and so do Node's warnings and stack traces), no
// warning or error in plain text on stdout; the demo's participant logs in
// to its own exchange and the exchange trades (the simulated second
// participant's sale is taken by one of our simulated drivers) within
// WINDOW_MS of serving (the window ends once the console shows the trade).
// The three minutes were checked by hand
// (docs/operations.md, "A first start").
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, freePort, testDb } from "../support/server";
import { until } from "../support/wait";
import { Console } from "../support/dispatch-world";

/** The participants' names (server/simulator/exchange-provision.ts, server/seed/exchange.ts). */
const SIMULATED_PARTICIPANT = "Такси Юг (симулятор)";
const OUR_PARTICIPANT = "Наше такси";

const WINDOW_MS = 90_000;
/** A fresh data folder: migrations and the demo city's seed come first. */
const START_TIMEOUT_MS = 240_000;

const root = path.resolve(import.meta.dirname, "..", "..");

interface LogLine {
  level?: string;
  message?: string;
}

interface BuildState {
  prismaStale: boolean;
  nextStale: boolean;
  serverStale: boolean;
}

/** Every JSON log line of the output; other lines (npm's banner, the server's) are returned as text. */
function logLines(output: string): Array<LogLine | string> {
  return output
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        const parsed = JSON.parse(line) as unknown;
        return typeof parsed === "object" && parsed !== null ? parsed : line;
      } catch {
        return line;
      }
    });
}

/**
 * A newcomer's shell: PATH without the node_modules/.bin folders that npm and
 * npx put in front for this test run (npm start puts the project's back),
 * HOME, the user and the locale. Nothing else of this process's environment.
 */
function newcomerEnvironment(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_ALL", "TERM", "TMPDIR"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  env.PATH = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => dir !== "" && !dir.split(path.sep).includes("node_modules"))
    .join(path.delimiter);
  return { ...env, ...extra };
}

/** `npm` as the newcomer's shell finds it on that PATH. */
function npmOn(pathList: string): string {
  for (const dir of pathList.split(path.delimiter)) {
    const candidate = path.join(dir, "npm");
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`npm is not on the PATH (${pathList}): the test runs npm start as README says`);
}

function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(`${url}/api/version`, { agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("error", () => resolve(false));
    req.on("timeout", () => req.destroy());
  });
}

/** Whether any process of the group still runs (npm, its shell, the server). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to the whole group (npm forwards it too; the server drains once), SIGKILL after 30 s; resolves when none is left. */
async function stopGroup(pgid: number): Promise<void> {
  if (!groupAlive(pgid)) return;
  process.kill(-pgid, "SIGTERM");
  const deadline = Date.now() + 30_000;
  while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  if (groupAlive(pgid)) {
    process.kill(-pgid, "SIGKILL");
    while (groupAlive(pgid)) await new Promise((r) => setTimeout(r, 100));
  }
}

type Query = (sql: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>;

/** The orders the simulated participant sold on the demo's exchange, and how many of them our drivers took. */
async function tradesIn(query: Query): Promise<{ sold: number; taken: number }> {
  // The simulated participant exists only from this start on: its sales are this run's.
  const [row] = await query(
    `SELECT count(*) AS sold, count(*) FILTER (WHERE o.executor_id = ours.id) AS taken
       FROM exchange_order o
       JOIN exchange_participant seller ON seller.id = o.seller_id AND seller.name = $1
       CROSS JOIN (SELECT id FROM exchange_participant WHERE name = $2) ours`,
    [SIMULATED_PARTICIPANT, OUR_PARTICIPANT],
  );
  return { sold: Number(row?.sold ?? 0), taken: Number(row?.taken ?? 0) };
}

describe("the first start as README says (npm start)", () => {
  let child: ChildProcess | undefined;
  let dataDir: string;
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  let url = "";
  let stdout = "";
  let stderr = "";
  let output = "";
  let servingAt = 0;

  beforeAll(async () => {
    // @ts-expect-error: plain JavaScript module of the build (no declarations)
    const { buildState } = (await import("../../scripts/build-state.mjs")) as { buildState: (distDir?: string) => BuildState };
    // What start.mjs will see with the newcomer's environment (no NEXT_DIST_DIR: .next).
    const state = buildState(".next");
    if (state.prismaStale || state.nextStale || state.serverStale) {
      throw new Error(
        `the build is missing or stale (${JSON.stringify(state)}): npm start would build it first, for minutes, beside the other lanes. Build it before this test: npx next build && node scripts/build-server.mjs`,
      );
    }
    dataDir = mkdtempSync(path.join(tmpdir(), "taxi-first-start-"));
    const database = testDb() === "postgres" ? await createPostgresDatabase("taxi_first") : undefined;
    databaseUrl = database?.url;
    dropDatabase = database?.drop;
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env = newcomerEnvironment({ DATA_DIR: dataDir, PORT: String(port), ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
    // Its own process group: the stop reaches npm, its shell and the server at once.
    // (Next's typing makes ProcessEnv's NODE_ENV required: a child's environment is any map of strings.)
    const proc = spawn(npmOn(env.PATH!), ["start"], { cwd: root, env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"], detached: true });
    child = proc;
    // From the very first byte: nothing the start-up writes escapes the checks.
    proc.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      output += chunk.toString();
    });
    proc.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      output += chunk.toString();
    });
    const exited = new Promise<never>((_, reject) => proc.once("exit", (code, signal) => reject(new Error(`npm start exited (${code ?? signal}):\n${output.slice(-4000)}`))));
    exited.catch(() => undefined);
    await Promise.race([
      exited,
      until("npm start serving", async () => /Taxi dispatch is running at /.test(stdout) && (await answers(url)), START_TIMEOUT_MS, 500),
    ]);
    servingAt = Date.now();
  });

  afterAll(async () => {
    if (child?.pid !== undefined) await stopGroup(child.pid);
    await dropDatabase?.().catch(() => undefined);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves the current build without building it again", () => {
    expect(stdout).toMatch(/> node scripts\/start\.mjs/);
    expect(output).not.toMatch(/Building the application|Built the server|Generated Prisma Client/);
  });

  it("trades on its own exchange and writes no warning or error", async () => {
    // The demo's participant logs in to its own exchange (the address policy lets it reach loopback).
    await until("the demo's exchange session", () => /"exchange session opened"/.test(output), 60_000);
    expect(output).toMatch(/"outgoing calls: non-public addresses allowed".*127\.0\.0\.1\/32/);
    // The window ends as soon as the console shows the trade (an order bought from the exchange, taken by one of
    // our drivers), read as an operator would with the banner's administrator; the database confirms it below.
    const admin = /admin login:\s+(\S+) \/ (\S+)/.exec(stdout);
    expect(admin, "the banner's administrator").not.toBeNull();
    const console_ = await Console.open(url, admin![1]!, admin![2]!);
    const windowEnds = servingAt + WINDOW_MS;
    while (Date.now() < windowEnds) {
      const bought = await console_.query<{ items: unknown[] }>("exchangeDesk.links", { role: "BOUGHT", phases: ["TAKEN", "CLOSED"], limit: 10 });
      if (bought.items.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, Math.max(0, windowEnds - Date.now()))));
    }

    const lines = logLines(output);
    // Compared as their JSON text: a failure then prints each line whole (objects would be cut to "{ …(4) }").
    const loud = lines.filter((line): line is LogLine => typeof line !== "string" && (line.level === "warn" || line.level === "error"));
    expect(loud.map((line) => JSON.stringify(line)), "warnings or errors in the first minutes' log").toEqual([]);
    const refused = lines.filter((line) => typeof line !== "string" && /login failed|not allowed for outgoing/.test(line.message ?? ""));
    expect(refused.map((line) => JSON.stringify(line))).toEqual([]);
    // Everything on stderr counts: the server's warn and error lines, Node's warnings, stack traces, npm's complaints.
    expect(stderr, "stderr of npm start").toBe("");
    // And plain text on stdout that warns or fails (Next's, npm's, a library's console.log).
    // (The banner's generated API key and password are left out: random text may spell anything.)
    const plainLoud = logLines(stdout).filter(
      (line): line is string => typeof line === "string" && !/^\s+(API key|admin login):/.test(line) && /warn|error|fail|⚠|deprecat|\(node:\d+\)/i.test(line),
    );
    expect(plainLoud, "plain-text warnings or errors on stdout").toEqual([]);
    expect(child?.exitCode ?? null, "npm start still running").toBeNull();

    // The trade, read from the database (PGlite: once the server stopped):
    // an order the simulated participant sold on the exchange, taken by one of our drivers.
    let query: Query;
    let close: () => Promise<void>;
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      query = async (sql, params) => (await client.query(sql, params)).rows;
      close = () => client.end();
    } else {
      await stopGroup(child!.pid!);
      const database = new PGlite(path.join(dataDir, "pglite"));
      query = async (sql, params) => (await database.query<Record<string, unknown>>(sql, params)).rows;
      close = () => database.close();
    }
    try {
      const trades = await tradesIn(query);
      expect(trades.sold, "orders the simulated participant sold on the demo's exchange").toBeGreaterThan(0);
      expect(trades.taken, "of them, taken by our drivers").toBeGreaterThan(0);
    } finally {
      await close();
    }
  });
});
