// Fault: every request fails the same way for a while (here: the orders
// table locked by an operator, so that every read of it runs into the
// statement timeout). The log used to get a full stack per failed request
// (1,263 lines in a 20 s outage); now it gets one per incident, and the
// count when the incident ends (server/log.ts). PostgreSQL only: an outside
// session can lock a table there.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { TEST_DB, type TestDatabase } from "./support/db";
import { dispatchClient } from "./support/dispatch";
import { closeAgents } from "./support/http";
import { freshDatabase, startInstance, template, type AppInstance } from "./support/instance";

const REQUESTS = 24;

describe.skipIf(TEST_DB !== "postgres")("an incident of identical failures", () => {
  let database: TestDatabase;
  let app: AppInstance;

  beforeAll(async () => {
    database = await freshDatabase();
    app = await startInstance(database, { env: { DATABASE_STATEMENT_TIMEOUT_MS: "1000" } });
  });

  afterAll(async () => {
    closeAgents();
    await app?.stop();
    await database?.drop();
  });

  it("logs one stack for the incident and counts the repeats", async () => {
    const api = dispatchClient(app.url, template().apiKey);
    const created = await api.post<{ uuid: string }>("order", { phone: "89161234567", street: "ул. Ленина", house: "2", moderation_required: "no", need_notify: "no" });
    expect(created.status).toBe("DONE");

    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const from = app.output().length;
    try {
      await admin.query("BEGIN");
      await admin.query("LOCK TABLE orders IN ACCESS EXCLUSIVE MODE");
      const replies = await Promise.all(Array.from({ length: REQUESTS }, () => api.get("order/status", { uuid: created.response.uuid })));
      const failed = replies.filter((r) => r.status === "ERROR");
      expect(failed.length).toBeGreaterThanOrEqual(REQUESTS / 2);
    } finally {
      await admin.query("ROLLBACK").catch(() => undefined);
      await admin.end();
    }
    // Counts are written when the incident ends; a clean stop writes the open ones.
    await app.kill("SIGTERM");
    const log = app.output().slice(from);
    const stacks = log.split("\n").filter((line) => line.includes('"dispatch API: unexpected error"') && line.includes('"stack"'));
    const repeated = log.split("\n").filter((line) => line.includes('"dispatch API: unexpected error (repeated)"'));
    console.log(`faults-logging: ${stacks.length} stack(s) logged; ${repeated.map((l) => /"repeated":(\d+)/.exec(l)?.[1]).join(", ")} repeat(s) counted`);
    expect(stacks.length).toBe(1);
    expect(repeated.length).toBe(1);
    expect(Number(/"repeated":(\d+)/.exec(repeated[0]!)?.[1])).toBeGreaterThan(0);
  });
});
