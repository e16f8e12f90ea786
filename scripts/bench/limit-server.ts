// The benchmark's "limit": a plain node:http server doing the same work as the
// dispatch API's order read and order insert with the raw database driver
// (pg, or PGlite in a data directory of its own). No framework, no
// validation beyond what the SQL needs, no API key: no server of ours can be
// faster than this on the same machine and database.
//
//   GET  /order?uuid=...  the order information query of server/orders/read-order.ts, prepared as there
//   POST /order           one INSERT of a free order (form: phone, street, house)
//   GET  /uuids?n=...     uuids of existing orders (for the load generator)
//   POST /position        a driver's position stored (JSON: id, lat, lon, speed, bearing): one UPDATE (the fleet, fleet.ts)
//
// Environment: PORT, and DATABASE_URL (PostgreSQL) or LIMIT_DATA_DIR (PGlite,
// migrated and given a city, a service and 1,000 orders when empty).
import http from "node:http";
import path from "node:path";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { migrate } from "../../server/db/migrate";
import { executeSql, prepareOnPglite } from "../../server/db/prepared";
// The order information query of the dispatch API, prepared as it does.
import { ORDER_INFO } from "../../server/orders/read-order";

type Query = <T>(sql: string, params?: unknown[]) => Promise<T[]>;
interface Database {
  query: Query;
  readOrder: (uuid: string) => Promise<Record<string, unknown> | undefined>;
}

const INSERT_SQL = `
  INSERT INTO orders (uuid, city_id, service_id, state, status_code, phone, street, house, updated_at)
  VALUES ($1::uuid, $2, $3, 'ON_MODERATION', 80, $4, $5, $6, now())
  RETURNING uuid::text AS uuid`;

const POSITION_SQL = `
  UPDATE driver SET lat = $2, lon = $3, speed = $4, bearing = $5, position_at = now()
   WHERE id = $1 RETURNING state::text AS state`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function open(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
    return {
      query: async <T,>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[],
      readOrder: async (uuid) => (await pool.query({ name: ORDER_INFO.name, text: ORDER_INFO.sql, values: [uuid] })).rows[0] as Record<string, unknown> | undefined,
    };
  }
  const dir = process.env.LIMIT_DATA_DIR;
  if (!dir) throw new Error("DATABASE_URL or LIMIT_DATA_DIR is required");
  const pglite = new PGlite(path.join(dir, "pglite"));
  const query: Query = async <T,>(sql: string, params: unknown[] = []) => (await pglite.query<T>(sql, params)).rows;
  await migrate({ query, exec: async (sql) => void (await pglite.exec(sql)) });
  const [city] = await query<{ id: number }>("SELECT id FROM city ORDER BY id LIMIT 1");
  if (!city) {
    const [c] = await query<{ id: number }>(`INSERT INTO city (name, name_en, lat, lon) VALUES ('Бенчград', 'Benchgrad', 55.75, 37.62) RETURNING id`);
    await query(`INSERT INTO service (city_id, name, name_en) VALUES ($1, 'Эконом', 'Economy')`, [c!.id]);
    await query(
      `INSERT INTO orders (uuid, city_id, service_id, state, status_code, phone, street, house, updated_at)
       SELECT gen_random_uuid(), $1, (SELECT id FROM service ORDER BY id LIMIT 1), 'FREE', 9, '+79000000000', 'ул. Ленина', i::text, now()
         FROM generate_series(1, 1000) i`,
      [c!.id],
    );
  }
  if (!(await prepareOnPglite(pglite, ORDER_INFO))) throw new Error("cannot prepare the order information query");
  return { query, readOrder: async (uuid) => (await pglite.query<Record<string, unknown>>(executeSql(ORDER_INFO.name, [uuid]))).rows[0] };
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

async function main(): Promise<void> {
  const { query, readOrder } = await open();
  const [service] = await query<{ id: number; city_id: number }>("SELECT id, city_id FROM service ORDER BY id LIMIT 1");
  if (!service) throw new Error("no service in the database");

  const server = http.createServer((req, res) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const pathname = q === -1 ? url : url.slice(0, q);
    const search = new URLSearchParams(q === -1 ? "" : url.slice(q + 1));
    const work = async () => {
      if (req.method === "GET" && pathname === "/order") {
        const uuid = search.get("uuid") ?? "";
        if (!UUID.test(uuid)) return send(res, 200, { status: "ERROR", error: { code: "BAD_PARAMETER" } });
        const row = await readOrder(uuid.toLowerCase());
        return send(res, 200, row ? { status: "DONE", response: row } : { status: "ERROR", error: { code: "NOT_FOUND" } });
      }
      if (req.method === "POST" && pathname === "/order") {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
        const [row] = await query<{ uuid: string }>(INSERT_SQL, [
          randomUUID(),
          service.city_id,
          service.id,
          form.get("phone") ?? "+79000000000",
          form.get("street") ?? "",
          form.get("house") ?? "",
        ]);
        return send(res, 200, { status: "DONE", response: { uuid: row?.uuid } });
      }
      if (req.method === "POST" && pathname === "/position") {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const p = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: number; lat: number; lon: number; speed: number; bearing: number };
        const [row] = await query<{ state: string }>(POSITION_SQL, [p.id, p.lat, p.lon, p.speed, p.bearing]);
        return send(res, 200, row ? { state: row.state } : { status: "ERROR", error: { code: "NOT_FOUND" } });
      }
      if (req.method === "GET" && pathname === "/uuids") {
        const n = Math.min(Number(search.get("n") ?? 100) || 100, 10_000);
        const rows = await query<{ uuid: string }>("SELECT uuid::text AS uuid FROM orders ORDER BY id LIMIT $1", [n]);
        return send(res, 200, rows.map((r) => r.uuid));
      }
      if (pathname === "/version") return send(res, 200, { status: "DONE", response: { version: "limit" } });
      send(res, 404, { status: "ERROR", error: { code: "NOT_FOUND" } });
    };
    work().catch((error: unknown) => send(res, 500, { status: "ERROR", error: { code: "INTERNAL", message: String(error) } }));
  });
  server.keepAliveTimeout = 65_000;
  const port = Number(process.env.PORT ?? 0);
  server.listen(port, "127.0.0.1", () => {
    const address = server.address();
    console.log(`LIMIT_READY ${typeof address === "object" && address ? address.port : port}`);
  });
  process.on("SIGTERM", () => process.exit(0));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
