// The benchmark's "default way" (docs/performance.md): the same work as the
// dispatch API's order read and order insert, written as a plain Next.js route
// handler with Prisma. Answers 404 unless the server was started by the
// benchmark: BENCH_ROUTES holds a random token of the run (scripts/bench/run.ts
// makes one per run; 32 characters at least) and each request carries it
// (Authorization: Bearer <token>). A setting alone ("1", a leftover in a
// production environment) opens nothing: nobody outside the run knows the token.
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { db } from "@/server/db";

export const dynamic = "force-dynamic";

const digest = (s: string) => createHash("sha256").update(s).digest();

function enabled(request: Request): boolean {
  const token = process.env.BENCH_ROUTES ?? "";
  if (token.length < 32) return false;
  const given = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}
const notFound = () => Response.json({ status: "ERROR", error: { code: "NOT_FOUND", message: "Not found" } }, { status: 404 });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** GET /bench/order?uuid=...: one order with its city, driver and car. */
export async function GET(request: Request): Promise<Response> {
  if (!enabled(request)) return notFound();
  const uuid = new URL(request.url).searchParams.get("uuid") ?? "";
  if (!UUID.test(uuid)) return Response.json({ status: "ERROR", error: { code: "BAD_PARAMETER" } });
  const order = await db().order.findUnique({
    where: { uuid: uuid.toLowerCase() },
    select: {
      uuid: true, state: true, statusCode: true, amount: true, rateId: true, startTime: true, preOrderTime: true, arrivalAt: true,
      city: { select: { timezone: true } },
      driver: { select: { callSign: true, firstName: true, phone: true, car: { select: { brand: true, model: true, color: true, regNumber: true } } } },
    },
  });
  if (!order) return Response.json({ status: "ERROR", error: { code: "NOT_FOUND" } });
  return Response.json({ status: "DONE", response: order });
}

let service: Promise<{ id: number; cityId: number } | null> | undefined;

/** POST /bench/order (form: phone, street): inserts a free order of the first service. */
export async function POST(request: Request): Promise<Response> {
  if (!enabled(request)) return notFound();
  const form = new URLSearchParams(await request.text());
  service ??= db().service.findFirst({ orderBy: { id: "asc" }, select: { id: true, cityId: true } });
  const first = await service;
  if (!first) return Response.json({ status: "ERROR", error: { code: "NOT_FOUND" } });
  const order = await db().order.create({
    data: {
      uuid: randomUUID(),
      cityId: first.cityId,
      serviceId: first.id,
      state: "ON_MODERATION",
      statusCode: 80,
      phone: form.get("phone") ?? "+70000000000",
      street: form.get("street") ?? "",
      house: form.get("house") ?? "",
    },
    select: { uuid: true },
  });
  return Response.json({ status: "DONE", response: { uuid: order.uuid } });
}
