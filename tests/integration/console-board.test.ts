// The console's order board through tRPC on the started server (the SQL of
// server/console/board-data.ts on whichever database TEST_DB names): its
// rows and their shape, the filters, paging, the rows by ids, the
// moderation queue, and counts that follow the orders' changes.
import { inject } from "vitest";
import { beforeAll, describe, expect, it } from "vitest";
import { apiKey, apiPost, baseUrl } from "../support/api";
import { signInApi, trpc, uniquePhone, type Session } from "../../e2e/support/console-api";

interface Row {
  id: number;
  uuid: string;
  state: string;
  statusCode: number;
  version: number;
  source: string;
  phone: string;
  clientName: string;
  street: string;
  house: string;
  comment: string;
  amount: number | null;
  preOrderTime: Date | null;
  createdAt: Date;
  updatedAt: Date;
  service: { id: number; name: string; nameEn: string };
  region: { id: number; name: string; nameEn: string } | null;
  driver: { id: number; callSign: string } | null;
}
type Page = { items: Row[]; nextCursor: number | null };
type Counts = { active: number; moderation: number; free: number; assigned: number; preorders: number };

let session: Session;
const tag = `Board${Date.now().toString(36)}`;
const made: Array<{ uuid: string; phone: string }> = [];

async function board(filter: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Page> {
  const r = await trpc<Page>(baseUrl(), session, "orders.board", { filter, limit: 10, ...extra });
  expect(r.error).toBeUndefined();
  return r.data!;
}

beforeAll(async () => {
  session = await signInApi(baseUrl(), inject("adminEmail"), inject("adminPassword"));
  for (let i = 0; i < 12; i++) {
    const phone = uniquePhone();
    const reply = await apiPost<{ uuid: string }>("order", { phone, street: "ул. Ленина", house: "2", name: `${tag} ${i}`, comment: `c${i}`, moderation_required: i % 2 ? "no" : "yes" });
    expect(reply.status, JSON.stringify(reply.error)).toBe("DONE");
    made.push({ uuid: reply.response.uuid, phone });
  }
});

describe("the order board", () => {
  it("finds orders by the client's name, newest first, in the console's shape", async () => {
    const page = await board({ group: "all", q: tag }, { limit: 50 });
    expect(page.items.map((r) => r.uuid)).toEqual(made.map((m) => m.uuid).reverse());
    expect(page.nextCursor).toBeNull();
    const row = page.items[0]!;
    expect(row.createdAt).toBeInstanceOf(Date);
    expect(row.updatedAt).toBeInstanceOf(Date);
    expect(Math.abs(row.createdAt.getTime() - Date.now())).toBeLessThan(10 * 60_000);
    expect(row).toMatchObject({ clientName: `${tag} 11`, comment: "c11", street: "ул. Ленина", house: "2", source: "API", driver: null, preOrderTime: null });
    expect(row.phone).toBe(`+${made[11]!.phone}`);
    expect(row.service).toEqual({ id: expect.any(Number), name: expect.any(String), nameEn: expect.any(String) });
    expect(typeof row.amount).toBe("number");
    expect(row.version).toBeGreaterThanOrEqual(0);
  });

  it("pages by cursor without gaps or repeats", async () => {
    const first = await board({ group: "all", q: tag }, { limit: 10 });
    expect(first.items).toHaveLength(10);
    expect(first.nextCursor).toBe(first.items[9]!.id);
    const second = await board({ group: "all", q: tag }, { limit: 10, cursor: first.nextCursor });
    expect([...first.items, ...second.items].map((r) => r.uuid)).toEqual(made.map((m) => m.uuid).reverse());
    expect(second.nextCursor).toBeNull();
  });

  it("filters by group, state, phone digits, order number; a % or _ typed is no wildcard", async () => {
    const moderation = await board({ group: "moderation", q: tag }, { limit: 50 });
    expect(moderation.items.map((r) => r.uuid)).toEqual(made.filter((_, i) => i % 2 === 0).map((m) => m.uuid).reverse());
    expect(moderation.items.every((r) => r.state === "ON_MODERATION")).toBe(true);
    const byState = await board({ group: "all", state: "FREE", q: tag }, { limit: 50 });
    expect(byState.items).toHaveLength(6);
    const byPhone = await board({ group: "all", q: `+${made[3]!.phone}` });
    expect(byPhone.items.map((r) => r.uuid)).toEqual([made[3]!.uuid]);
    const id = byPhone.items[0]!.id;
    expect((await board({ group: "all", q: `#${id}` })).items.map((r) => r.id)).toEqual([id]);
    // Phone digits only from a query typed as a phone: a street or a name with digits is not looked for in the phones.
    expect((await board({ group: "all", q: `8 (${made[3]!.phone.slice(1, 4)}) ${made[3]!.phone.slice(4, 7)}-${made[3]!.phone.slice(7)}` })).items.map((r) => r.uuid)).toEqual([made[3]!.uuid]);
    expect((await board({ group: "all", q: `x${made[3]!.phone.slice(-7)}` })).items).toHaveLength(0);
    expect((await board({ group: "all", q: `${tag.slice(0, 4)}%${tag.slice(5)}` })).items).toHaveLength(0);
    expect((await board({ group: "all", q: `${tag.slice(0, 4)}_${tag.slice(5)}` })).items).toHaveLength(0);
    expect((await board({ group: "done", q: tag })).items).toHaveLength(0);
  });

  it("gives the rows of given ids that still match the filter", async () => {
    const all = await board({ group: "all", q: tag }, { limit: 50 });
    const ids = all.items.slice(0, 4).map((r) => r.id);
    const rows = await trpc<Row[]>(baseUrl(), session, "orders.boardRows", { filter: { group: "moderation" }, ids });
    expect(rows.data!.map((r) => r.id)).toEqual(all.items.slice(0, 4).filter((r) => r.state === "ON_MODERATION").map((r) => r.id));
    expect(rows.data![0]!.createdAt).toBeInstanceOf(Date);
  });

  it("lists the moderation queue oldest first with its total", async () => {
    const q = await trpc<{ items: Row[]; total: number }>(baseUrl(), session, "orders.moderation", undefined);
    expect(q.data!.total).toBeGreaterThanOrEqual(6);
    const ids = q.data!.items.map((r) => r.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it("counts follow the orders' changes at once", async () => {
    const before = (await trpc<Counts>(baseUrl(), session, "orders.counts", undefined)).data!;
    expect(before.active).toBeGreaterThanOrEqual(12);
    const reply = await apiPost<{ uuid: string }>("order", { phone: uniquePhone(), street: "ул. Ленина", house: "2", moderation_required: "yes" });
    expect(reply.status).toBe("DONE");
    const afterCreate = (await trpc<Counts>(baseUrl(), session, "orders.counts", undefined)).data!;
    expect(afterCreate.moderation).toBe(before.moderation + 1);
    expect(afterCreate.active).toBe(before.active + 1);
    const cancelled = await apiPost("cancel_order", { api_key: apiKey(), uuid: reply.response.uuid });
    expect(cancelled.status).toBe("DONE");
    const afterCancel = (await trpc<Counts>(baseUrl(), session, "orders.counts", undefined)).data!;
    expect(afterCancel.moderation).toBe(before.moderation);
    expect(afterCancel.active).toBe(before.active);
  });
});
