// The exchange calls its participants' servers: the connection check
// (GET <url>/), their services (GET <url>/services) and their drivers
// (POST <url>/drivers {all: true}), keeping the profile's services and the
// drivers known to the exchange (for /drivers) up to date. When it runs:
//   - when a participant opens a session (discoverAfterLogin), so that a
//     participant written from the reference is offered orders at once;
//   - on demand: before an order would be refused for want of executors,
//     servers not read for DISCOVERY_FRESH_MS are read again (discoverStale);
//   - every EXCHANGE_CHECK_SECONDS for every server (checkServers).
// A new service is an executor service of the car class derived from what
// the reference's Service resource carries (docs/exchange.md): `carClass`
// when the server sends it (our extension), else the car class whose name
// (en, ru) or id equals the service's name; else null — every class. The
// drivers' own carClass (POST /drivers) also makes the participant able
// for their classes (market/common.ts, interestedParticipants).
import type { Db } from "../db";
import { log } from "../log";
import { OutgoingError, replyObject, sendOutgoing } from "../http/outgoing";

/** Servers read more recently than this are not read again on demand. */
export const DISCOVERY_FRESH_MS = 30_000;

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

/** An integer sent as a JSON number or as digits. */
function integerOf(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  if (typeof value === "string" && /^\d{1,9}$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

interface ClassName {
  id: number;
  names: string[];
}

async function classNames(db: Db): Promise<ClassName[]> {
  const rows = await db.carClass.findMany({ select: { id: true, nameEn: true, nameRu: true } });
  return rows
    .filter((c) => /^\d{1,9}$/.test(c.id))
    .map((c) => ({ id: Number(c.id), names: [c.id, c.nameEn, c.nameRu].map(normalName).filter((n) => n !== "") }));
}

function normalName(text: string): string {
  return text.trim().toLowerCase().replaceAll("ё", "е");
}

/** The car class a service's name or description names exactly (one class only), else null: every class. */
export function deriveClass(classes: ClassName[], name: string, description: string): number | null {
  for (const text of [name, description]) {
    const wanted = normalName(text);
    if (wanted === "") continue;
    const found = classes.filter((c) => c.names.includes(wanted));
    if (found.length === 1) return found[0]!.id;
  }
  return null;
}

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
      const classes = await classNames(db);
      for (const item of list.slice(0, 1000)) {
        const s = (item && typeof item === "object" ? item : {}) as { id?: unknown; name?: unknown; description?: unknown; carClass?: unknown };
        const externalId = typeof s.id === "number" ? s.id : typeof s.id === "string" && /^\d{1,9}$/.test(s.id) ? Number(s.id) : NaN;
        if (!Number.isSafeInteger(externalId)) continue;
        const explicit = integerOf(s.carClass);
        const name = str(s.name);
        const description = str(s.description, 1000);
        await db.exchangeService.upsert({
          where: { participantId_externalId: { participantId: server.participantId, externalId } },
          create: { participantId: server.participantId, externalId, name, description, carClass: explicit ?? deriveClass(classes, name, description) },
          update: { name, description, ...(explicit !== undefined ? { carClass: explicit } : {}) },
          select: { id: true },
        });
        result.services++;
      }
      await db.exchangeServer.update({ where: { id: server.id }, data: { servicesAt: new Date() }, select: { id: true } });
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
          carClass: integerOf(d.carClass) ?? 1,
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

const discovering = new Map<number, Promise<ServerCheck>>();

/** Reads one server now (one reading per server at a time in this process). */
export function discoverServer(db: Db, server: { id: number; participantId: number; url: string }): Promise<ServerCheck> {
  const running = discovering.get(server.id);
  if (running) return running;
  const started = checkServer(db, server).finally(() => discovering.delete(server.id));
  discovering.set(server.id, started);
  return started;
}

/** After a participant logged in: read its server's services and drivers, without holding up the reply. */
export function discoverAfterLogin(db: Db, serverId: number): void {
  void (async () => {
    const server = await db.exchangeServer.findUnique({ where: { id: serverId }, select: { id: true, participantId: true, url: true } });
    if (!server || server.url === "") return;
    const r = await discoverServer(db, server);
    if (!r.ok) log.warn("exchange: a participant's server did not answer after its login", { url: server.url, error: r.error });
  })().catch((error: unknown) => log.warn("exchange: discovery after login failed", { error: error instanceof Error ? error.message : String(error) }));
}

/**
 * On demand: reads the servers of active participants with an open session
 * that were not read in the last DISCOVERY_FRESH_MS (at most `limit`, all at
 * once). Returns how many were read.
 */
export async function discoverStale(db: Db, excludeParticipant: number, limit = 10): Promise<number> {
  const servers = await db.exchangeServer.findMany({
    where: {
      url: { not: "" },
      participantId: { not: excludeParticipant },
      participant: { disabled: false },
      sessions: { some: { revokedAt: null } },
      OR: [{ lastCheckAt: null }, { lastCheckAt: { lt: new Date(Date.now() - DISCOVERY_FRESH_MS) } }],
    },
    select: { id: true, participantId: true, url: true },
    orderBy: { id: "asc" },
    take: limit,
  });
  await Promise.all(servers.map((server) => discoverServer(db, server)));
  return servers.length;
}
