// Estimates along the demo city's roads, over real HTTP. The reference is
// computed here, independently of the server's router: plain Dijkstra (an
// O(n²) scan) on the same network, rebuilt from the deterministic seed plan,
// between junctions (points exactly on a junction need no snapping).
import { afterAll, describe, expect, inject, it } from "vitest";
import pg from "pg";
import { apiGet } from "../support/api";
import { estimateOperation } from "@/server/dispatch-api/operations/estimate";
import { haversineMetres } from "@/server/geo/distance";
import { buildDemoCity } from "@/server/seed/demo";
import { CLASS_INDEX, ROAD_CLASSES, paceAt, speedTable } from "@/server/routing/speeds";
import { eventually } from "../support/wait";
import { idleClientLost } from "../reliability/support/db";

async function estimate(params: Record<string, string | number>) {
  const reply = await apiGet("order/pre_cost", params);
  expect(reply.status, JSON.stringify(reply.error)).toBe("DONE");
  return estimateOperation.output.parse(reply.response);
}

const roads = buildDemoCity().cities[0]!.roads;

/** Fastest time (and its length) between two junctions of the plan at a pace per road class. */
function plainDijkstra(from: number, to: number, pace: Float64Array): { seconds: number; metres: number } {
  const n = roads.nodes.length;
  const out: Array<Array<{ to: number; seconds: number; metres: number }>> = Array.from({ length: n }, () => []);
  for (const s of roads.segments) {
    const seconds = s.length * pace[CLASS_INDEX[s.roadClass]]!;
    out[s.from]!.push({ to: s.to, seconds, metres: s.length });
    if (!s.oneway) out[s.to]!.push({ to: s.from, seconds, metres: s.length });
  }
  const time = new Float64Array(n).fill(Infinity);
  const metres = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  time[from] = 0;
  metres[from] = 0;
  for (;;) {
    let v = -1;
    for (let i = 0; i < n; i++) if (!done[i] && time[i]! < Infinity && (v === -1 || time[i]! < time[v]!)) v = i;
    if (v === -1 || v === to) break;
    done[v] = 1;
    for (const e of out[v]!) {
      if (time[v]! + e.seconds < time[e.to]!) {
        time[e.to] = time[v]! + e.seconds;
        metres[e.to] = metres[v]! + e.metres;
      }
    }
  }
  return { seconds: time[to]!, metres: metres[to]! };
}

/** Tomorrow at 00:00 UTC: 03:00 in Moscow, the hour the reference uses. */
function tomorrowAtMidnightUtc(): string {
  const d = new Date(Date.now() + 24 * 3600_000);
  return `${d.toISOString().slice(0, 10)} 00:00:00`;
}

describe("estimates along the roads", () => {
  it("gives the distance and time of the fastest route, as plain Dijkstra finds it", async () => {
    const pace = paceAt(speedTable(), 3);
    const n = roads.nodes.length;
    for (const [a, b] of [
      [17, Math.floor(n / 2)],
      [Math.floor(n / 3), Math.floor((2 * n) / 3) + 5],
      [101, n - 40],
    ] as const) {
      const [aLat, aLon] = roads.nodes[a]!;
      const [bLat, bLon] = roads.nodes[b]!;
      const expected = plainDijkstra(a, b, pace);
      const est = await estimate({
        way_points: JSON.stringify([{ lat: aLat, lon: aLon }, { lat: bLat, lon: bLon }]),
        pre_order_time_utc: tomorrowAtMidnightUtc(),
      });
      expect(est.route_time).toBe(Math.round(expected.seconds));
      expect(Math.abs(est.distance * 1000 - expected.metres)).toBeLessThanOrEqual(1);
      expect(est.route.points.length).toBeGreaterThan(2);
      expect(est.route.points[0]![0]).toBeCloseTo(aLat, 6);
      expect(est.route.points.at(-1)![1]).toBeCloseTo(bLon, 6);
    }
  });

  it("is exact between known addresses, and draws the route along the streets", async () => {
    const est = await estimate({ way_points: JSON.stringify([{ street: "ул. Ленина", house: "2" }, { street: "пр-т Мира", house: "5" }]) });
    expect(est.approximate).toBe(false);
    expect(est.route.points.length).toBeGreaterThan(2);
    const [first, last] = [est.route.points[0]!, est.route.points.at(-1)!];
    const straight = haversineMetres({ lat: first[0], lon: first[1] }, { lat: last[0], lon: last[1] });
    expect(est.distance * 1000).toBeGreaterThanOrEqual(straight - 1);
  });

  it("falls back to the straight line times the road factor off the roads, and says so", async () => {
    const a = { lat: 55.3, lon: 37.6 };
    const b = { lat: 55.32, lon: 37.62 };
    const est = await estimate({ way_points: JSON.stringify([a, b]) });
    expect(est.approximate).toBe(true);
    expect(est.distance * 1000).toBeCloseTo(haversineMetres(a, b) * 1.3, -1);
    expect(est.route.points).toHaveLength(2);
  });
});

describe.skipIf(inject("testDb") !== "postgres")("the road graph on PostgreSQL: another writer", () => {
  const pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 1 });
  pool.on("error", idleClientLost);
  afterAll(async () => {
    await pool.query(`DELETE FROM road_speed WHERE city_id = 1`);
    await pool.end();
  });

  it("reloads when roads change under it (statement triggers, NOTIFY taxi_road)", async () => {
    const pace = paceAt(speedTable(), 3);
    const [a, b] = [120, roads.nodes.length - 200] as const;
    const params = {
      way_points: JSON.stringify([{ lat: roads.nodes[a]![0], lon: roads.nodes[a]![1] }, { lat: roads.nodes[b]![0], lon: roads.nodes[b]![1] }]),
      pre_order_time_utc: tomorrowAtMidnightUtc(),
    };
    expect((await estimate(params)).route_time).toBe(Math.round(plainDijkstra(a, b, pace).seconds));
    // Every road at 5 km/h at 03:00, written straight to the table as a script would.
    await pool.query(`INSERT INTO road_speed (city_id, road_class, hour, kmh) SELECT 1, c, 3, 5 FROM unnest(enum_range(NULL::"RoadClass")) AS c`);
    const slow = paceAt(speedTable(ROAD_CLASSES.map((roadClass) => ({ roadClass, hour: 3, kmh: 5 }))), 3);
    const expected = Math.round(plainDijkstra(a, b, slow).seconds);
    // The road graph reloads in the background once the database says the speeds changed.
    const got = await eventually(async () => (await estimate(params)).route_time, (t) => t === expected, 10_000, 100);
    expect(got).toBe(expected);
  });
});
