// The simulated city under automatic dispatch: the console sets batched
// offers for every service, the simulator's passengers order through the
// dispatch API and its drivers play the driver app's offers (most accept,
// some refuse with a reason, a few let the offer time out; advance orders
// are confirmed when asked). Then every order ends in a final state,
// nothing is lost or stuck, the drivers' answers show all three outcomes,
// and the database's rules held: never two live offers of one order or to
// one driver at once.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openServerDatabase } from "../support/server-database";
import { startServer, type StartedServer } from "../support/server";
import { cloneTemplate, TEST_DB, type TestDatabase } from "../reliability/support/db";
import { APP_SECRET, Console, DEFAULT_SETTINGS, PROVISIONING } from "../support/dispatch-world";
import { Engine } from "@/server/simulator/engine";

const EXPECTED_REFUSALS = new Set(["FORBIDDEN_MOVE", "CONFLICT", "NOT_FOUND"]);

let server: StartedServer | undefined;
let database: TestDatabase | undefined;
/** The run's seeded template (the demo city): the server starts on a copy of it, not on a city seeded again; with
 * the suite's APP_SECRET, from which the drivers' provisioning key is derived (the seed does not depend on it). */
const template = inject("reliabilityTemplate");
let startedAt = new Date();

// The scarcity rule (a short radius and no chains while orders outnumber cars, docs/dispatch.md) is off: this 20-car
// city is over capacity most of the quarter, and with it on so few offers go out that the drivers' few deliberate
// time-outs may not happen at all; what it changes is measured by the comparison, not here.
beforeAll(async () => {
  database = await cloneTemplate(template);
  server = await startServer({ db: TEST_DB, env: { ...database.env, SIMULATE: "0", OUTBOX_POLL_MS: "1000", DISPATCH_TICK_MS: "250", DISPATCH_SCARCE_RADIUS_KM: "0" }, seeded: { ...template, appSecret: APP_SECRET } });
  const console_ = await Console.open(server.url, server.adminEmail, server.adminPassword);
  const { services } = await console_.query<{ services: Array<{ id: number }> }>("reference.lookups");
  for (const s of services) {
    await console_.mutate("dispatch.saveSettings", { ...DEFAULT_SETTINGS, serviceId: s.id, strategy: "BATCHED", acceptSeconds: 30, attempts: 3, radiusKm: 8, chainMinutes: 3 });
  }
  startedAt = new Date();
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

// On PostgreSQL only: its races between offers, answers and time-outs are
// real there (row locks, several connections); on PGlite one connection
// serialises them, and the dispatch rules themselves run on PGlite in
// dispatch-offers and dispatch-liveness (issue 35: one run of a few minutes).
describe.skipIf(TEST_DB !== "postgres")("the simulator under automatic dispatch", () => {
  it("plays a quarter of an hour of offers: answered, refused, timed out; every order final", async () => {
    const s = server!;
    const lines: string[] = [];
    const engine = new Engine({
      baseUrl: s.url,
      apiKey: s.apiKey,
      provisioningKey: PROVISIONING,
      drivers: 20,
      // As many orders as half an hour at 1.5 a minute, in half the time (the suite's time).
      ordersPerMinute: 3,
      // Slow enough that a 30 s offer spans several ticks of the drivers' apps.
      speedUp: 20,
      tickSeconds: 5,
      seed: 11,
      cityKm: 4,
      advanceShare: 0.1,
      advanceLeadMinutes: [8, 12],
      moderationShare: 0,
      driverRejectShare: 0.05,
      // A fifth of the offers let time out: at the default 4 % a day of 30–50 offers had none one run in four,
      // and the suite checks that time-outs end offers (0.8^32: about one run in a thousand without one).
      driverIgnoreShare: 0.2,
      reportEveryMinutes: 10,
      log: (line) => lines.push(line),
    });
    await engine.setup();
    await engine.run(15);
    await engine.drain(90);
    const check = await engine.finalCheck();
    const summary = engine.summary();
    console.log([...lines, JSON.stringify(summary)].join("\n"));
    expect(check.stuck).toEqual([]);
    expect(summary.lost).toBe(0);
    expect(summary.totals.completed).toBeGreaterThan(10);
    for (const code of Object.keys(summary.errors)) expect(EXPECTED_REFUSALS, `failed calls: ${JSON.stringify(summary.errors)}`).toContain(code);

    const { query, close } = await openServerDatabase(s);
    try {
      const outcomes = await query<{ state: string; n: number }>(`SELECT state::text AS state, count(*)::int AS n FROM dispatch_offer WHERE sent_at >= $1 GROUP BY 1`, [startedAt]);
      const by = Object.fromEntries(outcomes.map((o) => [o.state, o.n]));
      expect(by.ACCEPTED ?? 0).toBeGreaterThan(10);
      expect(by.REFUSED ?? 0).toBeGreaterThan(0);
      console.log(`offer outcomes: ${JSON.stringify(by)}`);
      // The simulated drivers let a fifth of the offers go unanswered (above): those end by the deadline, not by an answer.
      expect(by.TIMED_OUT ?? 0).toBeGreaterThan(0);
      const overlapping = (column: string) =>
        query<{ n: number }>(
          `SELECT count(*)::int AS n FROM dispatch_offer x JOIN dispatch_offer y ON x.${column} = y.${column} AND x.id < y.id
            WHERE x.sent_at < COALESCE(y.answered_at, now()) AND y.sent_at < COALESCE(x.answered_at, now())`,
        );
      expect((await overlapping("order_id"))[0]!.n).toBe(0);
      expect((await overlapping("driver_id"))[0]!.n).toBe(0);
      const open = await query<{ uuid: string }>(`SELECT uuid::text AS uuid FROM orders WHERE created_at >= $1 AND source = 'API' AND status_code < 90`, [startedAt]);
      expect(open).toEqual([]);
    } finally {
      await close();
    }
  }, 900_000);
});
