// Fault: a second process opens an embedded database's folder that a
// running instance holds (a second `npm start`, `npm run db:migrate`). Both
// used to serve and acknowledge writes, and the one that stopped last wrote
// its stale view over the folder, erasing the other's acknowledged writes.
// Now the folder has one owner (server/db/data-dir-lock.ts): the second
// process refuses to start, naming the holder, and the first is unharmed;
// a lock left by a process killed with SIGKILL does not block the next start.
// PGlite only: PostgreSQL has its own server process.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DB, type TestDatabase } from "./support/db";
import { dispatchClient } from "./support/dispatch";
import { closeAgents } from "./support/http";
import { appInstance, freshDatabase, startInstance, template, type AppInstance } from "./support/instance";

const root = path.resolve(import.meta.dirname, "..", "..");

/** Runs a CLI tool of the project on the folder; its exit code and output. */
function runTool(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", ...args], { cwd: root, env: { ...process.env, ...env, LOG_LEVEL: "warn" }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

describe.skipIf(TEST_DB !== "pglite")("two processes on one PGlite folder", () => {
  let database: TestDatabase;
  let first: AppInstance;
  let second: AppInstance | undefined;

  beforeAll(async () => {
    database = await freshDatabase();
    first = await startInstance(database);
  });

  afterAll(async () => {
    closeAgents();
    await second?.stop();
    await first?.stop();
    await database?.drop();
  });

  async function createOrder(app: AppInstance): Promise<string> {
    const r = await dispatchClient(app.url, template().apiKey).post<{ uuid: string }>("order", { phone: "89161234567", street: "ул. Ленина", house: "2", moderation_required: "no", need_notify: "no" });
    if (r.status !== "DONE") throw new Error(`create: ${JSON.stringify(r.error)}`);
    return r.response.uuid;
  }

  it("refuses a second server and the CLI tools, naming the holder; the first serves on and keeps its writes", async () => {
    const before = await createOrder(first);
    const holder = first.process!.pid!;

    second = await appInstance(database);
    await expect(second.start()).rejects.toThrow(/server exited \(1\)/);
    expect(second.output()).toContain(`is in use by process ${holder}`);
    expect(second.output()).toMatch(/since \d{4}-\d\d-\d\dT/);

    const tool = await runTool(["scripts/db.ts", "migrate"], { ...database.env, DATABASE_URL: "" });
    expect(tool.code).not.toBe(0);
    expect(tool.output).toContain(`is in use by process ${holder}`);

    // The first instance is unharmed: it serves, and its writes (before and after) survive its restart.
    const after = await createOrder(first);
    await first.kill("SIGTERM");
    await first.start();
    const api = dispatchClient(first.url, template().apiKey);
    for (const uuid of [before, after]) expect((await api.get("order/status", { uuid })).status).toBe("DONE");
  });

  it("starts after the holder was killed with SIGKILL (its lock is stale)", async () => {
    const written = await createOrder(first);
    await first.kill("SIGKILL");
    await first.start();
    expect((await dispatchClient(first.url, template().apiKey).get("order/status", { uuid: written })).status).toBe("DONE");
  });
});
