// The simulator at high speed against a started server of its own: a
// simulated hour of drivers and passengers through the product's
// interfaces, then a drain (no new orders; the drivers finish theirs). Then
// every order the passengers made must be in a final state, nothing lost or
// stuck, and every balance must add up: each driver's balance is the sum of
// its ledger, and the commission debits are exactly those of the orders the
// drivers completed.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openServerDatabase } from "../support/server-database";
import { startServer, type StartedServer } from "../support/server";
import { cloneTemplate, TEST_DB, type TestDatabase } from "../reliability/support/db";
import { provisioningKeyFor } from "@/server/driver-app/keys";
import { Engine } from "@/server/simulator/engine";
import { DRIVER_HOLDING_STATES } from "@/server/orders/states";
import { Console } from "../support/dispatch-world";

const COMMISSION_PERCENT = 15;
/** Refusals a busy city produces (a passenger cancelling while the driver moves the order ...); never 5xx or network failures. */
const EXPECTED_REFUSALS = new Set(["FORBIDDEN_MOVE", "CONFLICT", "NOT_FOUND"]);

let server: StartedServer | undefined;
let database: TestDatabase | undefined;
let startedAt = new Date();
/** The run's seeded template (the demo city): the server starts on a copy of it. */
const template = inject("reliabilityTemplate");

beforeAll(async () => {
  database = await cloneTemplate(template);
  server = await startServer({ db: TEST_DB, env: { ...database.env, SIMULATE: "0", OUTBOX_POLL_MS: "1000" }, seeded: template });
  startedAt = new Date();
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

// On PGlite only: the built-in simulator is the demo's, on the embedded
// database; what it drives (the dispatch API and the driver interface) runs
// on both databases in their own suites (issue 35).
describe.skipIf(TEST_DB !== "pglite")("the simulator", () => {
  it("plays a simulated hour: every order ends in a final state and every balance adds up", async () => {
    const s = server!;
    const lines: string[] = [];
    const engine = new Engine({
      baseUrl: s.url,
      apiKey: s.apiKey,
      provisioningKey: provisioningKeyFor(template.appSecret),
      drivers: 20,
      ordersPerMinute: 1.2,
      speedUp: 120,
      tickSeconds: 60,
      seed: 7,
      cityKm: 4,
      advanceShare: 0.1,
      advanceLeadMinutes: [15, 30],
      moderationShare: 0.05,
      shiftMinutes: [25, 50],
      breakMinutes: [5, 15],
      reportEveryMinutes: 10,
      log: (line) => lines.push(line),
    });
    // Five of the simulated drivers start in the red (an accountant's debit through the console): each pays in at the
    // "terminal" before a shift it starts (server/simulator/driver.ts), and nobody else does.
    const accountant = await Console.open(s.url, s.adminEmail, s.adminPassword);
    const services = (await (await fetch(`${s.url}/api/services?api_key=${s.apiKey}`)).json()) as { response: { services: Array<{ city_id: number }> } };
    const listed = (await (await fetch(`${s.url}/api/drivers?api_key=${s.apiKey}&city_id=${services.response.services[0]!.city_id}`)).json()) as { response: { drivers: Array<{ code: string }> } };
    const inRed = listed.response.drivers.map((d) => d.code).sort((a, b) => a.localeCompare(b, "en", { numeric: true })).slice(0, 5);
    const accounts = await accountant.query<{ items: Array<{ id: number; callSign: string }> }>("balances.drivers", { limit: 500 });
    for (const callSign of inRed) {
      const id = accounts.items.find((a) => a.callSign === callSign)!.id;
      await accountant.mutate("balances.adjust", { account: "driver", id, amount: 300_000, direction: "debit", reason: "test: in the red", txnId: `sim-red-${callSign}-${Date.now()}` });
    }
    await engine.setup();
    await engine.run(60);
    await engine.drain(120);
    const check = await engine.finalCheck();
    const summary = engine.summary();
    console.log([...lines, JSON.stringify(summary)].join("\n"));

    expect(check.stuck).toEqual([]);
    expect(summary.lost).toBe(0);
    expect(summary.stuck).toBe(0);
    expect(summary.totals.created).toBeGreaterThanOrEqual(60);
    expect(summary.totals.completed).toBeGreaterThan(20);
    expect(summary.totals.assigned).toBeGreaterThanOrEqual(summary.totals.completed);
    expect(summary.totals.cancelled + summary.totals.noShow).toBeGreaterThan(0);
    expect(summary.totals.created).toBe(summary.totals.completed + summary.totals.cancelled + summary.totals.noShow);
    for (const code of Object.keys(summary.errors)) expect(EXPECTED_REFUSALS, `failed calls: ${JSON.stringify(summary.errors)}`).toContain(code);
    // Drivers went on and off shift.
    expect(lines.join("\n")).toMatch(/drivers \d+ on shift/);

    const { query, close } = await openServerDatabase(s);
    try {
      // Every order the passengers made is final.
      const open = await query<{ uuid: string; state: string }>(
        `SELECT uuid::text AS uuid, state FROM orders WHERE created_at >= $1 AND source = 'API' AND status_code < 90`,
        [startedAt],
      );
      expect(open).toEqual([]);
      const made = await query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE created_at >= $1 AND source = 'API'`, [startedAt]);
      expect(made[0]!.n).toBe(summary.totals.created);

      // Each driver's balance is the sum of its ledger.
      const unbalanced = await query<{ id: number }>(
        `SELECT d.id, d.balance::text, COALESCE(SUM(e.amount), 0)::text AS ledger
           FROM driver d LEFT JOIN driver_ledger_entry e ON e.driver_id = d.id
          GROUP BY d.id HAVING d.balance <> COALESCE(SUM(e.amount), 0)`,
      );
      expect(unbalanced).toEqual([]);

      // The terminal's payments: only by drivers in the red, each leaving the balance at zero or above; the drivers
      // started in the red paid in (those whose shift began in the hour).
      const payments = await query<{ call_sign: string; amount: string; balance_after: string }>(
        `SELECT d.call_sign, e.amount::text AS amount, e.balance_after::text AS balance_after
           FROM driver_ledger_entry e JOIN driver d ON d.id = e.driver_id WHERE e.txn_id LIKE 'sim-terminal-%'`,
      );
      for (const p of payments) {
        expect(BigInt(p.amount) > 0n, `${p.call_sign} paid ${p.amount}`).toBe(true);
        expect(BigInt(p.balance_after) >= 0n, `${p.call_sign} left at ${p.balance_after}`).toBe(true);
        expect(BigInt(p.balance_after) - BigInt(p.amount) < 0n, `${p.call_sign} paid in while not owing`).toBe(true);
      }
      expect(payments.filter((p) => inRed.includes(p.call_sign)).length).toBeGreaterThan(0);

      // The commission debits are exactly those of the orders of the simulated hour that our drivers carried to
      // the end, once each, whoever completed them (the app, a dispatcher, the dispatch API:
      // server/balances/commission.ts). The demo seed's finished orders are written as they are, without one.
      const completed = await query<{ id: number; amount: number | null; driver_id: number }>(
        `SELECT o.id, o.amount, o.driver_id FROM orders o WHERE o.created_at >= $1 AND o.state = 'DONE_SUCCESSFUL' AND o.driver_id IS NOT NULL`,
        [startedAt],
      );
      const debits = await query<{ order_id: number; driver_id: number; amount: string }>(
        `SELECT e.order_id, e.driver_id, e.amount::text AS amount FROM driver_ledger_entry e JOIN orders o ON o.id = e.order_id
          WHERE e.txn_id LIKE 'commission:order:%' AND o.created_at >= $1`,
        [startedAt],
      );
      expect(completed.length).toBeGreaterThanOrEqual(summary.totals.completed);
      const expected = completed
        .filter((o) => (o.amount ?? 0) > 0)
        .map((o) => ({ order_id: o.id, driver_id: o.driver_id, amount: String(-Math.round(((o.amount ?? 0) * COMMISSION_PERCENT) / 100)) }))
        .sort((a, b) => a.order_id - b.order_id);
      expect([...debits].sort((a, b) => a.order_id - b.order_id)).toEqual(expected);
      const total = debits.reduce((sum, d) => sum + BigInt(d.amount), 0n);
      const commissions = expected.reduce((sum, d) => sum + BigInt(d.amount), 0n);
      expect(total).toBe(commissions);
      expect(total < 0n).toBe(true);

      // A simulated driver is BUSY exactly while holding an order; nobody has two open shifts.
      const holding = DRIVER_HOLDING_STATES.map((st) => `'${st}'`).join(", ");
      const inconsistent = await query<{ call_sign: string }>(
        `SELECT d.call_sign, d.state::text FROM driver d
          WHERE (d.state = 'BUSY') <> EXISTS (SELECT 1 FROM orders o WHERE o.driver_id = d.id AND o.state IN (${holding}))
            AND d.state <> 'OFFLINE' AND d.call_sign = ANY($1::text[])`,
        [engine.drivers.map((d) => d.callSign)],
      );
      expect(inconsistent).toEqual([]);
      const doubled = await query<{ driver_id: number }>(`SELECT driver_id FROM shift WHERE ended_at IS NULL GROUP BY driver_id HAVING count(*) > 1`);
      expect(doubled).toEqual([]);
      const ended = await query<{ n: number }>(`SELECT count(*)::int AS n FROM shift WHERE ended_at IS NOT NULL`);
      expect(ended[0]!.n).toBeGreaterThan(0);
    } finally {
      await close();
    }
  }, 480_000); // ~2 min on a quiet machine; a loaded one (load 15 on 2 cores) took over 4
});
