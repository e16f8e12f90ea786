// The exchange calls its participants' servers: the connection check
// (GET <url>/), their services (GET <url>/services) and their drivers
// (POST <url>/drivers {all: true}), keeping the profile's services and the
// drivers known to the exchange (for /drivers) up to date. Runs every
// EXCHANGE_CHECK_SECONDS. A new service counts as an executor service of the
// car class it names (carClass, our extension of the Service resource; 1
// when absent); the operator may change that.
import type { Db } from "../db";
import { log } from "../log";
import { OutgoingError, replyObject, sendOutgoing } from "../http/outgoing";

const TIMEOUT_MS = 5_000;

async function call(method: "GET" | "POST", url: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const reply = await sendOutgoing({
    method,
    url,
    timeoutMs: TIMEOUT_MS,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: reply.status, json: replyObject(reply) };
}

const str = (v: unknown, max = 200) => (v === undefined || v === null ? "" : String(v).slice(0, max));

export interface ServerCheck {
  serverId: number;
  ok: boolean;
  services: number;
  drivers: number;
  error?: string;
}

export async function checkServer(db: Db, server: { id: number; participantId: number; url: string }): Promise<ServerCheck> {
  const result: ServerCheck = { serverId: server.id, ok: false, services: 0, drivers: 0 };
  try {
    const root = await call("GET", `${server.url}/`);
    const meta = (root.json.meta ?? {}) as { vendor?: unknown };
    result.ok = root.status === 200;
    await db.exchangeServer.update({
      where: { id: server.id },
      data: { lastCheckAt: new Date(), lastCheckOk: result.ok, ...(typeof meta.vendor === "string" ? { vendor: meta.vendor.slice(0, 100) } : {}) },
      select: { id: true },
    });
    if (!result.ok) return result;

    const services = await call("GET", `${server.url}/services`);
    const list = ((services.json.data as { services?: unknown } | undefined)?.services ?? []) as unknown[];
    if (services.status === 200 && Array.isArray(list)) {
      for (const item of list.slice(0, 1000)) {
        const s = item as { id?: unknown; name?: unknown; description?: unknown; carClass?: unknown };
        const externalId = typeof s.id === "number" ? s.id : Number(s.id);
        if (!Number.isInteger(externalId)) continue;
        const carClass = typeof s.carClass === "number" && Number.isInteger(s.carClass) ? s.carClass : undefined;
        await db.exchangeService.upsert({
          where: { participantId_externalId: { participantId: server.participantId, externalId } },
          create: { participantId: server.participantId, externalId, name: str(s.name), description: str(s.description, 1000), carClass: carClass ?? 1 },
          update: { name: str(s.name), description: str(s.description, 1000), ...(carClass !== undefined ? { carClass } : {}) },
          select: { id: true },
        });
        result.services++;
      }
    }

    const drivers = await call("POST", `${server.url}/drivers`, { all: true });
    const rows = ((drivers.json.data as { drivers?: unknown } | undefined)?.drivers ?? []) as unknown[];
    if (drivers.status === 200 && Array.isArray(rows)) {
      for (const item of rows.slice(0, 20_000)) {
        const d = item as Record<string, unknown>;
        const callSign = str(d.callSign, 64);
        if (!callSign) continue;
        const fields = {
          name: str(d.name) || callSign,
          phone: str(d.phone, 32),
          registrationNumber: str(d.registrationNumber, 32),
          brand: str(d.brand),
          model: str(d.model),
          modelCode: str(d.modelCode),
          color: str(d.color),
          colorCode: str(d.colorCode),
          carage: str(d.carage, 16),
          connectBy: str(d.connectBy, 32) || "api",
          carClass: typeof d.carClass === "number" && Number.isInteger(d.carClass) ? d.carClass : 1,
          options: Array.isArray(d.options) ? d.options.filter((o): o is number => typeof o === "number" && Number.isInteger(o)) : [],
        };
        await db.exchangeDriver.upsert({
          where: { participantId_callSign: { participantId: server.participantId, callSign } },
          create: { participantId: server.participantId, callSign, ...fields },
          update: fields,
          select: { id: true },
        });
        result.drivers++;
      }
    }
  } catch (error) {
    result.ok = false;
    // A category, never raw socket text: participants read it in their panel.
    result.error = error instanceof OutgoingError ? error.message : "the check failed";
    await db.exchangeServer
      .update({ where: { id: server.id }, data: { lastCheckAt: new Date(), lastCheckOk: false }, select: { id: true } })
      .catch(() => undefined);
  }
  return result;
}

/** Checks every server of the active participants. */
export async function checkServers(db: Db): Promise<ServerCheck[]> {
  const servers = await db.exchangeServer.findMany({
    where: { url: { not: "" }, participant: { disabled: false } },
    select: { id: true, participantId: true, url: true },
    orderBy: { id: "asc" },
  });
  const results: ServerCheck[] = [];
  for (const server of servers) {
    const r = await checkServer(db, server);
    if (!r.ok) log.warn("exchange: a participant's server did not answer the check", { url: server.url, error: r.error });
    results.push(r);
  }
  return results;
}
