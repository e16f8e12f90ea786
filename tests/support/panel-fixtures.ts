// Test data of the participants' control panel, written into a database
// before its server starts (tests/support/exchange/db.ts prepareDatabase): two
// participants with orders between them, ledgers with commission, the
// exchange's notifications to their servers, and the certificate authority
// with one certificate per case (good, revoked, expired, under a revoked
// intermediate, and one from a foreign authority copying a good one's names
// and serial). Needs process.env.APP_SECRET set to the server's.
import { Prisma, type PrismaClient } from "@/server/generated/prisma/client";
import { adjustBalance, completionEntries, postEntries } from "@/server/exchange/ledger";
import { createIntermediateAuthority, createRootAuthority, issueParticipantCertificate, revokeCertificate } from "@/server/certificates";
import { buildCertificate, certificateFromPem, generateKeyPair, toPkcs12 } from "@/server/certificates/x509";

export const P12_PASSWORD = "panel-test-password";
const DAY = 24 * 3600 * 1000;

export interface PanelCert {
  pfx: Buffer;
  serial: string;
}

export interface PanelFixture {
  a: { id: number; name: string };
  b: { id: number; name: string };
  orders: { aSoldDone: number; aSoldFree: number; bSecret: number; bSoldToA: number };
  certs: { a: PanelCert; b: PanelCert; revoked: PanelCert; expired: PanelCert; revokedIntermediate: PanelCert; foreign: PanelCert };
  rootPem: string;
  /** Markers that only B's data contains: A's pages must never show them. */
  bSecrets: string[];
}

const attributes = (from: string, to: string, fare: number): Prisma.InputJsonObject => ({
  client: { phone: "79161234567", name: "Иван" },
  from: { street: from.split(", ")[0] ?? from, house: from.split(", ")[1] ?? "", latitude: 55.75, longitude: 37.62 },
  to: { street: to.split(", ")[0] ?? to, house: to.split(", ")[1] ?? "", latitude: 55.78, longitude: 37.63 },
  carClass: 1,
  fare,
  time: { registered: new Date().toISOString() },
});

async function order(
  prisma: PrismaClient,
  input: { sellerId: number; executorId?: number; source: string; from: string; to: string; fare: number; state: string; code: number },
): Promise<number> {
  const o = await prisma.exchangeOrder.create({
    data: {
      sellerId: input.sellerId,
      sourceOrderId: input.source,
      attributes: attributes(input.from, input.to, input.fare / 100),
      fare: input.fare,
      state: input.state,
      statusCode: input.code,
      ...(input.executorId ? { executorId: input.executorId, executorOrderId: `${input.source}-exec`, takenAt: new Date() } : {}),
      ...(input.executorId
        ? { executor: { callSign: "77", phone: "79990001122", registrationNumber: "А123ВС77", brand: "Kia", model: "Rio", color: "белый" }, arrivalMinutes: 7 }
        : {}),
      ...(input.code === 100 ? { completedAt: new Date(), completion: { fare: String(input.fare / 100), distance: "5300" } } : {}),
      history: {
        create: [
          { fromState: null, toState: "NOT_REGISTERED", toCode: 0, participantId: input.sellerId, reason: "sent by the seller" },
          { fromState: "NOT_REGISTERED", toState: "FREE", toCode: 9, reason: "registered" },
          ...(input.state !== "FREE" ? [{ fromState: "FREE", toState: input.state, toCode: input.code, participantId: input.executorId ?? null, reason: "" }] : []),
        ],
      },
    },
    select: { id: true },
  });
  return o.id;
}

async function notification(
  prisma: PrismaClient,
  input: {
    participantId: number;
    orderId: number;
    server: string;
    topic: string;
    status: "PENDING" | "DELIVERED" | "FAILED";
    attempts: Array<{ httpStatus: number | null; error?: string }>;
    /** How long ago the message was written (its attempts follow a second apart). */
    agoMinutes?: number;
  },
): Promise<void> {
  const delivered = input.status === "DELIVERED";
  const createdAt = new Date(Date.now() - (input.agoMinutes ?? 0) * 60_000);
  await prisma.outboxMessage.create({
    data: {
      channel: "exchange",
      topic: input.topic,
      orderingKey: `exchange:p${input.participantId}:o${input.orderId}`,
      target: `${input.server}/on/${input.topic}`,
      payload: { meta: { topic: input.topic }, data: { id: String(input.orderId) } },
      status: input.status,
      attempts: input.attempts.length,
      lastError: delivered ? null : (input.attempts[input.attempts.length - 1]?.error ?? null),
      createdAt,
      deliveredAt: delivered ? new Date(createdAt.getTime() + input.attempts.length * 1000) : null,
      nextAttemptAt: new Date(Date.now() + 60_000),
      attemptLog: {
        create: input.attempts.map((a, i) => ({ httpStatus: a.httpStatus, error: a.error ?? null, durationMs: 12 + i * 7, at: new Date(createdAt.getTime() + (i + 1) * 1000) })),
      },
    },
  });
}

/** A certificate authority of someone else, and a client certificate from it dressed as `like`. */
function foreignCertificate(like: { pfxSubject: string; serial: string }): Buffer {
  const now = Date.now();
  const rootKeys = generateKeyPair(2048);
  const root = buildCertificate({
    profile: "root",
    subject: { commonName: "Taxi Exchange Root CA", organization: "Taxi Exchange" },
    publicKey: rootKeys.publicKey,
    selfKey: rootKeys.privateKey,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 365 * DAY),
  });
  const interKeys = generateKeyPair(2048);
  const inter = buildCertificate({
    profile: "intermediate",
    subject: { commonName: "Participants CA", organization: "Taxi Exchange" },
    publicKey: interKeys.publicKey,
    issuer: { certificate: root, privateKey: rootKeys.privateKey },
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 365 * DAY),
  });
  const keys = generateKeyPair(2048);
  const cert = buildCertificate({
    profile: "client",
    subject: { commonName: like.pfxSubject, organization: "Такси Север", organizationalUnit: "Exchange participant 1" },
    publicKey: keys.publicKey,
    issuer: { certificate: inter, privateKey: interKeys.privateKey },
    serial: like.serial,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 365 * DAY),
  });
  return toPkcs12({ privateKey: keys.privateKey, certificate: cert, chain: [inter, root], password: P12_PASSWORD, friendlyName: "foreign" });
}

export async function fillPanelFixture(prisma: PrismaClient): Promise<PanelFixture> {
  const a = await prisma.exchangeParticipant.create({
    data: {
      name: "Такси Север",
      details: "ООО «Север», ИНН 7700000001",
      email: "dispatch@sever.test",
      phone: "+7 495 000-00-01",
      countryEn: "Russia",
      countryRu: "Россия",
      locationEn: "Moscow",
      locationRu: "Москва",
      lat: 55.7558,
      lon: 37.6173,
      servers: { create: { url: "http://a-server.test", address: "127.0.0.1", vendor: "sever-dispatch 2.1", lastCheckAt: new Date(), lastCheckOk: true } },
      services: { create: [{ externalId: 1, name: "Эконом", carClass: 1 }, { externalId: 2, name: "Комфорт", carClass: 2 }] },
    },
  });
  const b = await prisma.exchangeParticipant.create({
    data: {
      name: "Такси Юг",
      details: "ООО «Юг-секрет», ИНН 7700000099",
      email: "b-secret@yug.test",
      phone: "+7 495 000-00-99",
      commissionBp: 300,
      servers: { create: { url: "http://b-secret-server.test", address: "127.0.0.2", lastCheckAt: new Date(), lastCheckOk: false } },
    },
  });

  const aSoldDone = await order(prisma, { sellerId: a.id, executorId: b.id, source: "A-1001", from: "ул. Ленина, 1", to: "пр. Мира, 10", fare: 45_000, state: "DONE_SUCCESSFUL", code: 100 });
  const aSoldFree = await order(prisma, { sellerId: a.id, source: "A-1002", from: "ул. Тверская, 5", to: "ул. Арбат, 20", fare: 30_000, state: "FREE", code: 9 });
  const bSecret = await order(prisma, { sellerId: b.id, source: "B-SECRET-77", from: "Секретная улица Юга, 13", to: "Тайный переулок, 2", fare: 99_900, state: "FREE", code: 9 });
  const bSoldToA = await order(prisma, { sellerId: b.id, executorId: a.id, source: "B-2001", from: "ул. Южная, 7", to: "ул. Садовая, 3", fare: 52_000, state: "CONFIRMED", code: 2 });

  await prisma.$transaction(async (tx) => {
    await adjustBalance(tx, { participantId: a.id, amount: 100_000n, txnId: "deposit:a:1", reason: "пополнение счёта" });
    await adjustBalance(tx, { participantId: b.id, amount: 500_000n, txnId: "deposit:b:1", reason: "secret deposit of B" });
    await postEntries(
      tx,
      completionEntries({ exchangeOrderId: aSoldDone, price: 45_000n, seller: { id: a.id, commissionBp: null }, buyer: { id: b.id, commissionBp: 300 } }),
    );
  });

  await notification(prisma, { participantId: a.id, orderId: aSoldDone, server: "http://a-server.test", topic: "order/registered", status: "DELIVERED", attempts: [{ httpStatus: 200 }], agoMinutes: 50 });
  await notification(prisma, { participantId: a.id, orderId: aSoldDone, server: "http://a-server.test", topic: "order/completed", agoMinutes: 20, status: "DELIVERED", attempts: [{ httpStatus: 502, error: "HTTP 502" }, { httpStatus: 200 }] });
  await notification(prisma, {
    participantId: a.id,
    orderId: aSoldFree,
    server: "http://a-server.test",
    topic: "order/accepted",
    status: "PENDING",
    attempts: [{ httpStatus: null, error: "connect ECONNREFUSED 10.0.0.1:80" }, { httpStatus: null, error: "connect ECONNREFUSED 10.0.0.1:80" }],
    agoMinutes: 10,
  });
  await notification(prisma, { participantId: b.id, orderId: bSecret, server: "http://b-secret-server.test", topic: "order/registered", status: "DELIVERED", attempts: [{ httpStatus: 200 }], agoMinutes: 90 });

  // the certificate authority
  const now = new Date();
  const root = await createRootAuthority(prisma, { commonName: "Taxi Exchange Root CA", organization: "Taxi Exchange" });
  await createIntermediateAuthority(prisma, { commonName: "Participants CA", organization: "Taxi Exchange" });
  const issue = async (participantId: number, userName: string, extra: { issuerSerial?: string; notBefore?: Date; notAfter?: Date } = {}): Promise<PanelCert> => {
    const issued = await issueParticipantCertificate(prisma, { participantId, userName, password: P12_PASSWORD, ...extra });
    return { pfx: issued.pkcs12, serial: issued.certificate.serial };
  };
  const certA = await issue(a.id, "Анна Смирнова");
  const certB = await issue(b.id, "Boris Secret");
  const revoked = await issue(a.id, "Revoked User");
  await revokeCertificate(prisma, revoked.serial);
  const expired = await issue(a.id, "Expired User", { notBefore: new Date(now.getTime() - 30 * DAY), notAfter: new Date(now.getTime() - DAY) });
  // a second intermediate, revoked after it issued a certificate
  const oldIntermediate = await createIntermediateAuthority(prisma, { commonName: "Participants CA (retired)", organization: "Taxi Exchange" });
  const revokedIntermediate = await issue(a.id, "Under Retired CA", { issuerSerial: oldIntermediate.serial });
  await revokeCertificate(prisma, oldIntermediate.serial);
  const foreign: PanelCert = { pfx: foreignCertificate({ pfxSubject: "Анна Смирнова", serial: certA.serial }), serial: certA.serial };

  const rootRow = await prisma.issuedCertificate.findUniqueOrThrow({ where: { serial: root.serial }, select: { certPem: true } });
  certificateFromPem(rootRow.certPem); // readable
  return {
    a: { id: a.id, name: a.name },
    b: { id: b.id, name: b.name },
    orders: { aSoldDone, aSoldFree, bSecret, bSoldToA },
    certs: { a: certA, b: certB, revoked, expired, revokedIntermediate, foreign },
    rootPem: rootRow.certPem,
    bSecrets: ["Секретная улица Юга", "B-SECRET-77", "b-secret-server.test", "b-secret@yug.test", "secret deposit of B", "Boris Secret"],
  };
}
