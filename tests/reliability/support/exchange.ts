// Exchange participants for the reliability suites, written into a database
// before its server starts: each with a server at 127.0.0.1 (its
// notifications go to `url`), a deposit, an executor service of car class 1
// and an open session whose token the test holds.
import { randomBytes } from "node:crypto";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { provisionParticipant } from "@/server/exchange/participants";
import { hashSecret } from "@/server/exchange/sessions";
import { send, type RawReply } from "./http";

export interface Participant {
  id: number;
  name: string;
  token: string;
}

export async function addExchangeParticipants(prisma: PrismaClient, names: string[], url: string): Promise<Participant[]> {
  const out: Participant[] = [];
  for (const name of names) {
    const made = await provisionParticipant(prisma, {
      name,
      email: `${name.toLowerCase().replace(/\W+/g, "")}@example.test`,
      phone: "+7 900 000-00-00",
      countryEn: "Russia",
      countryRu: "Россия",
      locationEn: "Moscow",
      locationRu: "Москва",
      lat: 55.75,
      lon: 37.62,
      commissionBp: null,
      server: { url, address: "127.0.0.1" },
      key: `xk_${randomBytes(18).toString("base64url")}`,
      services: [{ externalId: 1, name: "Эконом", carClass: 1, executes: true }],
      deposit: 1_000_000n,
    });
    const server = await prisma.exchangeServer.findFirstOrThrow({ where: { participantId: made.id }, select: { id: true } });
    const token = `xt_${randomBytes(32).toString("base64url")}`;
    await prisma.exchangeSession.create({ data: { participantId: made.id, serverId: server.id, tokenHash: hashSecret(token), lastUsedAt: new Date() } });
    out.push({ id: made.id, name, token });
  }
  return out;
}

export function exchangeCall(base: string, path: string, token: string, data: unknown): Promise<RawReply> {
  return send(base, {
    method: "POST",
    path: `/exchange/${path}`,
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ data }),
    timeoutMs: 60_000,
  });
}

export function orderAttributes(n: number) {
  return {
    client: { phone: "79161234567", name: "Иван" },
    from: { street: "ул. Ленина", house: String(n), latitude: 55.75, longitude: 37.62 },
    to: { street: "пр. Мира", house: "10", latitude: 55.78, longitude: 37.63 },
    carClass: 1,
    fare: 300,
    note: `order ${n}`,
  };
}

export function executor(callSign: string) {
  return { callSign, phone: "79990001122", registrationNumber: "А123ВС77", brand: "Kia", model: "Rio", color: "белый" };
}
