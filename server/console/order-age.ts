// The orders that need a person (issue 34): the age limits an administrator
// sets per kind of wait (order_age_limit), and the active orders past them —
// the count in the console's title, the alarms, the board's "needs a hand"
// tab. The rule itself (what an age is, amber, red) is shared/orders/age.ts,
// the same code the board's column runs.
import type { Db, DbOrTx } from "../db";
import { ValidationError } from "../errors";
import { rawQuery } from "../db/sql";
import { AGE_KINDS, WATCHED_STATES, ageOf, limitsValid, type AgeKind, type AgeLimit } from "../../shared/orders/age";

/** Every kind's limits, in AGE_KINDS order (a kind missing from the table has none). */
export async function listAgeLimits(db: DbOrTx): Promise<AgeLimit[]> {
  const rows = await db.orderAgeLimit.findMany({ select: { kind: true, amberSeconds: true, redSeconds: true } });
  const byKind = new Map(rows.map((r) => [r.kind, r]));
  return AGE_KINDS.flatMap((kind) => {
    const row = byKind.get(kind);
    return row ? [{ kind, amberSeconds: row.amberSeconds, redSeconds: row.redSeconds }] : [];
  });
}

export async function saveAgeLimit(db: Db, input: AgeLimit): Promise<{ kind: AgeKind; changes: Record<string, [number | null, number]> }> {
  if (!limitsValid(input.kind, input.amberSeconds, input.redSeconds)) {
    throw new ValidationError("BAD_PARAMETER", { parameter: "redSeconds", reasonKey: input.kind === "ADVANCE" ? "ageAdvanceOrder" : "ageOrder" });
  }
  return db.$transaction(async (tx) => {
    const before = await tx.orderAgeLimit.findUnique({ where: { kind: input.kind }, select: { amberSeconds: true, redSeconds: true } });
    await tx.orderAgeLimit.upsert({
      where: { kind: input.kind },
      create: { kind: input.kind, amberSeconds: input.amberSeconds, redSeconds: input.redSeconds },
      update: { amberSeconds: input.amberSeconds, redSeconds: input.redSeconds },
      select: { kind: true },
    });
    return {
      kind: input.kind,
      changes: { amberSeconds: [before?.amberSeconds ?? null, input.amberSeconds], redSeconds: [before?.redSeconds ?? null, input.redSeconds] },
    };
  });
}

export interface Attention {
  /** Orders past their red limit, oldest wait first (at most 200 ids). */
  red: number[];
  amber: number;
  moderation: number;
  /** Orders on moderation past their amber limit. */
  moderationLate: number;
  /** Orders that need a person now: every one on moderation and every one past its red limit (the title's count). */
  needHand: number;
}

interface WatchedRow {
  id: number;
  state: string;
  created_ms: number;
  pre_order_ms: number | null;
  state_ms: number | null;
}

const ms = (column: string) => `(EXTRACT(EPOCH FROM ${column}) * 1000)::float8`;

/** The active orders whose wait is watched, measured against the limits now. */
export async function attention(db: Db, now = Date.now()): Promise<Attention> {
  const [limits, rows] = await Promise.all([
    listAgeLimits(db),
    rawQuery(db)<WatchedRow>(
      `SELECT o.id, o.state, ${ms("o.created_at")} AS created_ms, ${ms("o.pre_order_time")} AS pre_order_ms,
              ${ms("(SELECT h.at FROM order_status_change h WHERE h.order_id = o.id ORDER BY h.id DESC LIMIT 1)")} AS state_ms
         FROM orders o WHERE o.state = ANY($1::text[])`,
      [WATCHED_STATES],
    ),
  ]);
  const byKind = new Map(limits.map((l) => [l.kind, l]));
  const red: Array<{ id: number; seconds: number }> = [];
  let amber = 0;
  let moderation = 0;
  let moderationLate = 0;
  let moderationRed = 0;
  for (const r of rows) {
    const created = new Date(Number(r.created_ms));
    const age = ageOf(
      { state: r.state, createdAt: created, stateAt: r.state_ms === null ? created : new Date(Number(r.state_ms)), preOrderTime: r.pre_order_ms === null ? null : new Date(Number(r.pre_order_ms)) },
      byKind,
      now,
    );
    if (r.state === "ON_MODERATION") {
      moderation += 1;
      if (age.level !== "ok") moderationLate += 1;
      if (age.level === "red") moderationRed += 1;
    }
    if (age.level === "red") red.push({ id: Number(r.id), seconds: age.kind === "ADVANCE" ? -age.seconds : age.seconds });
    else if (age.level === "amber") amber += 1;
  }
  red.sort((a, b) => b.seconds - a.seconds);
  return { red: red.slice(0, 200).map((r) => r.id), amber, moderation, moderationLate, needHand: red.length + moderation - moderationRed };
}
