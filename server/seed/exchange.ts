// The demo exchange: car classes and options (unless the demo city wrote
// them), our own server as the participant "Наше такси" (its server at
// <publicUrl>/participant, its services from our Service table) and two
// other demo participants with drivers and balances. Running it again
// changes nothing. Call after the demo city:
//   await seedExchange(db, { publicUrl, clientKey: cfg.EXCHANGE_CLIENT_KEY })
// With `clientKey` (our EXCHANGE_CLIENT_KEY when this instance is also the
// exchange) that key is registered for "Наше такси"; without one a key is
// generated once and returned (to be printed once).
import type { Db } from "../db";
import { adjustBalance } from "../exchange/ledger";
import { addServer, createParticipant, upsertService } from "../exchange/participants";
import { hashSecret, issueClientKey } from "../exchange/sessions";
import { trimEndChar } from "../text/trim";

export const OUR_PARTICIPANT = "Наше такси";

export interface SeedExchangeOptions {
  /** This instance's public base URL, e.g. http://localhost:3000 */
  publicUrl: string;
  clientKey?: string;
}

export interface SeedExchangeResult {
  created: boolean;
  participantId: number;
  /** Present only when generated now. */
  clientKey?: string;
}

const CAR_CLASSES = [
  { id: "1", nameEn: "Economy", nameRu: "Эконом", cars: [{ brand: "Lada", model: "Vesta", year: 2020 }, { brand: "Kia", model: "Rio", year: 2019 }] },
  { id: "2", nameEn: "Comfort", nameRu: "Комфорт", cars: [{ brand: "Skoda", model: "Octavia", year: 2021 }, { brand: "Toyota", model: "Camry", year: 2020 }] },
  { id: "3", nameEn: "Business", nameRu: "Бизнес", cars: [{ brand: "Mercedes-Benz", model: "E-Class", year: 2022 }] },
];

const CAR_OPTIONS = [
  { id: "1", name: "Детское кресло", type: "extra", access: "all" },
  { id: "2", name: "Перевозка животных", type: "extra", access: "all" },
  { id: "3", name: "Багаж", type: "extra", access: "all" },
  { id: "4", name: "Некурящий водитель", type: "general", access: "all" },
  { id: "5", name: "Кондиционер", type: "general", access: "all" },
  { id: "6", name: "Оплата картой", type: "general", access: "driver|admin" },
  { id: "7", name: "Брендированный автомобиль", type: "general", access: "driver|admin" },
];

const DEMO_PARTICIPANTS = [
  {
    name: "Такси Север",
    details: "ООО «Север», ИНН 7700000001",
    email: "dispatch@sever-taxi.example",
    phone: "+7 495 000-00-01",
    countryEn: "Russia",
    countryRu: "Россия",
    locationEn: "Moscow",
    locationRu: "Москва",
    lat: 55.7558,
    lon: 37.6173,
    services: [{ externalId: 1, name: "Эконом", carClass: 1 }, { externalId: 2, name: "Комфорт", carClass: 2 }],
    drivers: [
      { callSign: "S-11", name: "Пётр Сергеевич Орлов", phone: "79030000011", registrationNumber: "А111АА77", brand: "Kia", model: "Rio", color: "белый", carage: "2019", carClass: 1, options: [4, 5] },
      { callSign: "S-12", name: "Илья Андреевич Киселёв", phone: "79030000012", registrationNumber: "В212ВВ77", brand: "Skoda", model: "Octavia", color: "серый", carage: "2021", carClass: 2, options: [1, 5, 6] },
    ],
    deposit: 500_000n,
  },
  {
    name: "Городское такси",
    details: "ИП Смирнов А. В.",
    email: "info@city-taxi.example",
    phone: "+7 812 000-00-02",
    countryEn: "Russia",
    countryRu: "Россия",
    locationEn: "Saint Petersburg",
    locationRu: "Санкт-Петербург",
    lat: 59.9343,
    lon: 30.3351,
    services: [{ externalId: 10, name: "Стандарт", carClass: 1 }],
    drivers: [
      { callSign: "G-7", name: "Анна Викторовна Белова", phone: "79110000007", registrationNumber: "Е777ЕЕ78", brand: "Lada", model: "Vesta", color: "синий", carage: "2020", carClass: 1, options: [3] },
    ],
    deposit: 200_000n,
  },
];

export async function seedExchange(db: Db, options: SeedExchangeOptions): Promise<SeedExchangeResult> {
  await db.carClass.createMany({ data: CAR_CLASSES, skipDuplicates: true });
  await db.carOption.createMany({ data: CAR_OPTIONS, skipDuplicates: true });

  let created = false;
  let generated: string | undefined;
  const base = trimEndChar(options.publicUrl, "/");
  let ours = await db.exchangeParticipant.findFirst({ where: { name: OUR_PARTICIPANT }, select: { id: true } });
  if (!ours) {
    created = true;
    ours = await db.$transaction(async (tx) => {
      const p = await createParticipant(tx, {
        name: OUR_PARTICIPANT,
        details: "Наша диспетчерская служба",
        countryEn: "Russia",
        countryRu: "Россия",
        locationEn: "Moscow",
        locationRu: "Москва",
        lat: 55.7558,
        lon: 37.6173,
      });
      let host = "127.0.0.1";
      try {
        host = new URL(base).hostname;
      } catch {
        // keep the loopback address
      }
      await addServer(tx, p.id, { url: `${base}/participant`, address: host === "localhost" ? "127.0.0.1, ::1, localhost" : host });
      const services = await tx.service.findMany({ where: { active: true }, select: { id: true, name: true, description: true, carClass: true }, orderBy: { id: "asc" } });
      const list = services.length ? services : [{ id: 1, name: "Эконом", description: "", carClass: 1 }];
      for (const s of list) await upsertService(tx, p.id, { externalId: s.id, name: s.name, description: s.description, carClass: s.carClass, executes: true });
      await adjustBalance(tx, { participantId: p.id, amount: 1_000_000n, txnId: "seed:deposit:our", reason: "demo deposit" });
      return { id: p.id };
    });
  }
  if (options.clientKey) {
    const known = await db.exchangeClientKey.findUnique({ where: { keyHash: hashSecret(options.clientKey) }, select: { id: true } });
    if (!known) await issueClientKey(db, ours.id, options.clientKey);
  } else if ((await db.exchangeClientKey.count({ where: { participantId: ours.id } })) === 0) {
    generated = (await issueClientKey(db, ours.id)).key;
  }

  for (const demo of DEMO_PARTICIPANTS) {
    if (await db.exchangeParticipant.findFirst({ where: { name: demo.name }, select: { id: true } })) continue;
    created = true;
    const { services, drivers, deposit, ...profile } = demo;
    await db.$transaction(async (tx) => {
      const p = await createParticipant(tx, profile);
      await issueClientKey(tx, p.id);
      for (const s of services) await upsertService(tx, p.id, { ...s, executes: true });
      for (const d of drivers) await tx.exchangeDriver.create({ data: { participantId: p.id, connectBy: "api", ...d }, select: { id: true } });
      await adjustBalance(tx, { participantId: p.id, amount: deposit, txnId: `seed:deposit:${demo.name}`, reason: "demo deposit" });
    });
  }
  return { created, participantId: ours.id, ...(generated ? { clientKey: generated } : {}) };
}
