// Participants' exchange profiles and their administration by the
// operator's support (the console and the seed call these): a participant,
// its servers (URL to notify, addresses its calls come from), client keys,
// services (an executor service makes it interested in orders of a car
// class) and deposits.
import type { Db, DbOrTx } from "../db";
import { issueClientKey } from "./sessions";
import { adjustBalance } from "./ledger";
import { trimEndChar } from "../text/trim";

export async function listProfiles(db: Db) {
  const rows = await db.exchangeParticipant.findMany({ where: { disabled: false }, orderBy: { id: "asc" } });
  return rows.map((p) => ({
    id: String(p.id),
    name: p.name,
    details: p.details,
    email: p.email,
    phone: p.phone,
    country: { name: { en: p.countryEn, ru: p.countryRu } },
    location: { name: { en: p.locationEn, ru: p.locationRu }, lat: p.lat, lon: p.lon },
    currency: { code: p.currency },
  }));
}

export interface ParticipantInput {
  name: string;
  details?: string;
  email?: string;
  phone?: string;
  countryEn?: string;
  countryRu?: string;
  locationEn?: string;
  locationRu?: string;
  lat?: number;
  lon?: number;
  currency?: string;
  commissionBp?: number | null;
}

export interface ServerInput {
  /** Base address of the server's endpoints; notifications go to `<url>/on/...`. */
  url: string;
  /** Addresses its calls come from (IPs or host names, comma-separated). */
  address: string;
}

export interface ServiceInput {
  externalId: number;
  name: string;
  description?: string;
  carClass?: number;
  executes?: boolean;
}

export async function createParticipant(db: DbOrTx, input: ParticipantInput) {
  return db.exchangeParticipant.create({ data: { ...input }, select: { id: true, name: true } });
}

export async function addServer(db: DbOrTx, participantId: number, input: ServerInput) {
  return db.exchangeServer.create({
    data: { participantId, url: trimEndChar(input.url, "/"), address: input.address },
    select: { id: true, url: true, address: true },
  });
}

export async function upsertService(db: DbOrTx, participantId: number, input: ServiceInput) {
  const fields = {
    name: input.name,
    description: input.description ?? "",
    ...(input.carClass !== undefined ? { carClass: input.carClass } : {}),
    ...(input.executes !== undefined ? { executes: input.executes } : {}),
  };
  return db.exchangeService.upsert({
    where: { participantId_externalId: { participantId, externalId: input.externalId } },
    create: { participantId, externalId: input.externalId, ...fields },
    update: fields,
    select: { id: true },
  });
}

/** A whole participant at once (fixtures, seed): profile, server, key, services, opening deposit. */
export async function provisionParticipant(
  db: Db,
  input: ParticipantInput & { server?: ServerInput; key?: string; services?: ServiceInput[]; deposit?: bigint },
) {
  const { server, key, services, deposit, ...profile } = input;
  return db.$transaction(async (tx) => {
    const participant = await createParticipant(tx, profile);
    if (server) await addServer(tx, participant.id, server);
    const issued = await issueClientKey(tx, participant.id, key);
    for (const service of services ?? []) await upsertService(tx, participant.id, service);
    if (deposit && deposit !== 0n) {
      await adjustBalance(tx, { participantId: participant.id, amount: deposit, txnId: `deposit:opening:${participant.id}`, reason: "opening deposit" });
    }
    return { id: participant.id, key: issued.key };
  });
}

/** Enabled participants' ids and names by name (the console's pickers). */
export function participantNames(db: DbOrTx) {
  return db.exchangeParticipant.findMany({ where: { disabled: false }, select: { id: true, name: true }, orderBy: { name: "asc" } });
}
