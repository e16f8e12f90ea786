// The order board's SQL: its rows in one round trip on the raw driver. The
// board through Prisma paid the client's query compiler for 100 rows and
// three relations on every load (docs/performance.md); the filter is the
// same rule as before (board-filter.ts), written once, here.
import type { DbOrTx } from "../db";
import { rawQuery } from "../db/sql";
import { GROUP_STATES, type ParsedBoardFilter } from "../../shared/orders/board-filter";
import { escapeLike } from "../db/like";
import type { OrderSource } from "../generated/prisma/enums";
import type { BoardRow } from "../../shared/board-wire";


interface SqlRow {
  id: number;
  uuid: string;
  state: string;
  status_code: number;
  version: number;
  source: string;
  phone: string;
  client_name: string;
  street: string;
  house: string;
  dst: string;
  dst_street: string;
  dst_house: string;
  comment: string;
  amount: number | null;
  pre_order_ms: number | null;
  created_ms: number;
  updated_ms: number;
  state_ms: number | null;
  service_id: number;
  service_name: string;
  service_name_en: string;
  region_id: number | null;
  region_name: string | null;
  region_name_en: string | null;
  driver_id: number | null;
  call_sign: string | null;
}

// Timestamps as epoch milliseconds: the columns are UTC without a zone, which
// the raw driver would otherwise read in the process's local zone.
const ms = (column: string) => `(EXTRACT(EPOCH FROM ${column}) * 1000)::float8`;
/** The orders' columns the board shows: only these go through the page's sort when the planner sorts. */
const COLUMNS = `o.id, o.uuid, o.state, o.status_code, o.version, o.source, o.phone, o.client_name, o.street, o.house, o.dst, o.dst_street,
  o.dst_house, o.comment, o.amount, o.pre_order_time, o.created_at, o.updated_at, o.service_id, o.region_id, o.driver_id`;

/**
 * The board's columns over `source`, a derived table of orders (`o`): the
 * page is chosen from orders alone, then only its rows are joined to their
 * service, region and driver. Joining first made the planner hash-join every
 * matching order (10,000 active) before the LIMIT whenever the table's
 * statistics were stale — always on PGlite, which has no autovacuum: 70 ms a
 * page there. PGlite's statistics come from server/db/analyze.ts.
 */
const select = (source: string) => `
  SELECT o.id, o.uuid::text AS uuid, o.state, o.status_code, o.version, o.source::text AS source, o.phone, o.client_name,
         o.street, o.house, o.dst, o.dst_street, o.dst_house, o.comment, o.amount,
         ${ms("o.pre_order_time")} AS pre_order_ms, ${ms("o.created_at")} AS created_ms, ${ms("o.updated_at")} AS updated_ms,
         -- When the order entered its state (the age column): the page's rows only, by the history's index.
         ${ms("(SELECT h.at FROM order_status_change h WHERE h.order_id = o.id ORDER BY h.id DESC LIMIT 1)")} AS state_ms,
         s.id AS service_id, s.name AS service_name, s.name_en AS service_name_en,
         r.id AS region_id, r.name AS region_name, r.name_en AS region_name_en,
         d.id AS driver_id, d.call_sign
    FROM (${source}) o
    JOIN service s ON s.id = o.service_id
    LEFT JOIN region r ON r.id = o.region_id
    LEFT JOIN driver d ON d.id = o.driver_id`;

function toRow(r: SqlRow): BoardRow {
  return {
    id: Number(r.id),
    uuid: r.uuid,
    state: r.state,
    statusCode: Number(r.status_code),
    version: Number(r.version),
    source: r.source as OrderSource,
    phone: r.phone,
    clientName: r.client_name,
    street: r.street,
    house: r.house,
    dst: r.dst,
    dstStreet: r.dst_street,
    dstHouse: r.dst_house,
    comment: r.comment,
    amount: r.amount === null ? null : Number(r.amount),
    preOrderTime: r.pre_order_ms === null ? null : new Date(Number(r.pre_order_ms)),
    createdAt: new Date(Number(r.created_ms)),
    updatedAt: new Date(Number(r.updated_ms)),
    stateAt: new Date(Number(r.state_ms ?? r.created_ms)),
    service: { id: Number(r.service_id), name: r.service_name, nameEn: r.service_name_en },
    region: r.region_id === null ? null : { id: Number(r.region_id), name: r.region_name ?? "", nameEn: r.region_name_en ?? "" },
    driver: r.driver_id === null ? null : { id: Number(r.driver_id), callSign: r.call_sign ?? "" },
  };
}

/**
 * A query typed as a phone number: digits with a phone's usual separators and nothing else. Only such a query
 * is looked for in the phones: the digits of "ул. 8 Марта 12" or of a name with a number are no phone.
 */
const PHONE_AS_TYPED = /^\+?[\d\s().-]+$/;

/** Phone digits as stored (11 digits beginning with 7): 8XXXXXXXXXX → 7XXXXXXXXXX; none for a query that is not a phone. */
function phoneDigits(q: string): string {
  if (!PHONE_AS_TYPED.test(q)) return "";
  const digits = q.replace(/\D/g, "");
  return digits.length === 11 && digits.startsWith("8") ? `7${digits.slice(1)}` : digits;
}

/** The filter's conditions and their parameters (numbered from `params.length + 1`). */
function boardConditions(filter: ParsedBoardFilter, params: unknown[]): string[] {
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const and: string[] = [];
  const states = GROUP_STATES[filter.group];
  if (filter.state) and.push(`o.state = ${p(filter.state)}`);
  else if (states) and.push(`o.state = ANY(${p([...states])}::text[])`);
  if (filter.serviceId) and.push(`o.service_id = ${p(filter.serviceId)}::int`);
  if (filter.regionId) and.push(`o.region_id = ${p(filter.regionId)}::int`);
  const q = filter.q?.trim();
  const byNumber = q ? /^#(\d{1,9})$/.exec(q) : null;
  if (byNumber?.[1]) {
    // "#123": that order only.
    and.push(`o.id = ${p(Number(byNumber[1]))}::int`);
  } else if (q) {
    const like = p(`%${escapeLike(q)}%`);
    const or = [`o.street ILIKE ${like}`, `o.dst ILIKE ${like}`, `o.dst_street ILIKE ${like}`, `o.client_name ILIKE ${like}`, `EXISTS (SELECT 1 FROM driver d WHERE d.id = o.driver_id AND d.call_sign ILIKE ${p(escapeLike(q))})`];
    const digits = phoneDigits(q);
    if (digits.length >= 3) or.push(`o.phone LIKE ${p(`%${escapeLike(digits)}%`)}`);
    const number = /^(\d{1,9})$/.exec(q);
    if (number?.[1]) or.push(`o.id = ${p(Number(number[1]))}::int`);
    and.push(`(${or.join(" OR ")})`);
  }
  return and;
}

/** One page of the board, newest first: `limit` rows below `cursor` (an order id). */
export async function selectBoardPage(db: DbOrTx, input: { filter: ParsedBoardFilter; cursor?: number | null; limit: number }): Promise<BoardRow[]> {
  const params: unknown[] = [];
  const and = boardConditions(input.filter, params);
  if (input.cursor) {
    params.push(input.cursor);
    and.push(`o.id < $${params.length}::int`);
  }
  params.push(input.limit);
  const page = `SELECT ${COLUMNS} FROM orders o ${and.length ? `WHERE ${and.join(" AND ")}` : ""} ORDER BY o.id DESC LIMIT $${params.length}::int`;
  const rows = await rawQuery(db)<SqlRow>(`${select(page)} ORDER BY o.id DESC`, params);
  return rows.map(toRow);
}

/** The rows among `ids` that match the filter, newest first. */
export async function selectBoardRows(db: DbOrTx, filter: ParsedBoardFilter, ids: number[]): Promise<BoardRow[]> {
  const params: unknown[] = [ids];
  const and = [`o.id = ANY($1::int[])`, ...boardConditions(filter, params)];
  const rows = await rawQuery(db)<SqlRow>(`${select(`SELECT ${COLUMNS} FROM orders o WHERE ${and.join(" AND ")}`)} ORDER BY o.id DESC`, params);
  return rows.map(toRow);
}

/** Orders waiting for a dispatcher's decision, oldest first, and how many there are. */
export async function selectModerationQueue(db: DbOrTx, limit: number): Promise<{ items: BoardRow[]; total: number }> {
  const query = rawQuery(db);
  const [rows, count] = await Promise.all([
    query<SqlRow>(`${select(`SELECT ${COLUMNS} FROM orders o WHERE o.state = 'ON_MODERATION' ORDER BY o.id ASC LIMIT $1::int`)} ORDER BY o.id ASC`, [limit]),
    query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE state = 'ON_MODERATION'`),
  ]);
  return { items: rows.map(toRow), total: Number(count[0]?.n ?? 0) };
}

/** Unfinished orders by state (an index-only scan of orders(state, created_at)). */
export async function countByState(db: DbOrTx, states: readonly string[]): Promise<Array<{ state: string; n: number }>> {
  const rows = await rawQuery(db)<{ state: string; n: number }>(`SELECT state, count(*)::int AS n FROM orders WHERE state = ANY($1::text[]) GROUP BY state`, [[...states]]);
  return rows.map((r) => ({ state: r.state, n: Number(r.n) }));
}
