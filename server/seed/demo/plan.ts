// The demo city as plain data: everything the seed writes, built from a
// seeded PRNG without touching the database. References between rows are by
// natural keys (names, call signs, phones, uuids); the writer turns them into
// ids. The same options give the same plan on every run.
import { normalizeForSearch, normalizeHouse, searchWords } from "../../geo/normalize";
import type { LatLon } from "../../geo/polygon";
import type { RateFields } from "../../pricing/rate-shape";
import { DRIVER_HOLDING_STATES, ORDER_STATES, canMove, type OrderState } from "../../orders/states";
import {
  bearingDegrees,
  clampToBox,
  haversineMetres,
  offsetMetres,
  regionGrid,
  regionOf,
  regionShapes,
  round6,
  streetSegment,
  type Box,
  type RegionShape,
} from "./geometry";
import {
  ADJECTIVE_STREETS,
  CANCEL_REASONS,
  CANONICAL_STREETS,
  CAR_COLORS,
  CARS_BY_KIND,
  COMPANIES_MAIN,
  COMPANIES_SECOND,
  FEMALE_FIRST,
  MAIN_PUBLIC_PLACES,
  MALE_FIRST,
  NOUN_STREETS,
  ORDER_COMMENTS,
  PATRONYMICS,
  PLATE_LETTERS,
  PREFIXES,
  SECOND_PUBLIC_PLACES,
  SURNAMES,
  adjectiveForm,
  genderOf,
  type Gender,
  type PublicPlace,
  type StreetPrefix,
} from "./names";
import { DEMO_SEED, Rng } from "./random";
import { WayPicker, buildRoadPlan, pointAlong, wayLine, type RoadPlan, type WaySize } from "./roads";

export interface DemoOptions {
  /** Streets and public places of the main city (default 350). */
  streets?: number;
  /** The moment the city lives in (default: now). Times are relative to it. */
  now?: Date;
}

export const DEFAULT_STREETS = 350;

/** The main demo city's box, and its road grid's spacing (the dispatch comparison drives on the same roads). */
export const MAIN_BOX: Box = { minLat: 55.56, maxLat: 55.98, minLon: 37.26, maxLon: 37.96 };
export const MAIN_ROAD_SPACING = 600;

// ---------------------------------------------------------------- plan types

export type ServiceKind = "economy" | "comfort" | "business" | "minivan";
export type RateKind = "day" | "night" | "airport";

export interface RatePlan extends RateFields {
  name: string;
  kind: RateKind;
  isBasic: boolean;
  /** Queue name, or null for every queue of the service. */
  queue: string | null;
}

export interface ExtraPlan {
  code: string;
  name: string;
  nameEn: string;
  shortName: string;
  price: number;
  allowMultiple: boolean;
  isDefault: boolean;
  queue: string | null;
}

export interface ServicePlan {
  kind: ServiceKind;
  name: string;
  nameEn: string;
  description: string;
  sortOrder: number;
  carClass: number;
  queues: Array<{ name: string; isMain: boolean }>;
  rates: RatePlan[];
  extras: ExtraPlan[];
  /** Names of the regions the service works in. */
  regions: string[];
}

export interface RegionPlan {
  name: string;
  nameEn: string;
  polygon: LatLon[];
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}

export interface HousePlan {
  number: string;
  numberKey: string;
  lat: number;
  lon: number;
  region: string | null;
}

export interface StreetPlan {
  kind: "STREET" | "PUBLIC_PLACE";
  prefix: string;
  name: string;
  fullName: string;
  searchKey: string;
  lat: number;
  lon: number;
  words: string[];
  houses: HousePlan[];
  /** The road segments (indices into the city's roads.segments) the street runs along; none for a public place. */
  segments: number[];
}

export interface LedgerPlan {
  txnId: string;
  amount: bigint;
  balanceAfter: bigint;
  reason: string;
  createdAt: Date;
}

export interface CarPlan {
  brand: string;
  model: string;
  color: string;
  regNumber: string;
  year: number;
  carClass: number;
  options: number[];
}

export interface DriverPlan {
  callSign: string;
  firstName: string;
  lastName: string;
  middleName: string;
  phone: string;
  permitNumber: string;
  state: "FREE" | "BUSY" | "OFFLINE";
  balance: bigint;
  lat: number;
  lon: number;
  speed: number;
  bearing: number;
  positionAt: Date;
  /** A driver on shift (FREE or BUSY) has an open shift since this time; null: off shift. */
  shiftStartedAt: Date | null;
  region: string | null;
  createdAt: Date;
  kind: ServiceKind;
  car: CarPlan;
  /** Names of the services of the driver's city the driver serves. */
  services: string[];
  ledger: LedgerPlan[];
}

export interface CustomerPlan {
  name: string;
  contract: string;
  balance: bigint;
  createdAt: Date;
  ledger: LedgerPlan[];
}

export interface ClientPlan {
  phone: string;
  name: string;
  bonus: number;
  createdAt: Date;
  bonusLog: Array<{ txnId: string; amount: number; bonusAfter: number; reason: string; createdAt: Date }>;
}

export interface WayPoint {
  street: string;
  house: string;
  lat: number;
  lon: number;
}

export interface StatusChangePlan {
  fromState: OrderState | null;
  toState: OrderState;
  toCode: number;
  reason: string;
  at: Date;
}

export interface OrderPlan {
  uuid: string;
  service: string;
  queue: string | null;
  rate: string | null;
  region: string | null;
  clientPhone: string | null;
  customer: string | null;
  driver: string | null;
  source: "API" | "CONSOLE";
  state: OrderState;
  statusCode: number;
  phone: string;
  clientName: string;
  street: string;
  house: string;
  apartment: string;
  entrance: string;
  lat: number;
  lon: number;
  dst: string;
  dstStreet: string;
  dstHouse: string;
  dstLat: number;
  dstLon: number;
  wayPoints: WayPoint[];
  comment: string;
  systemMessage: string;
  amount: number;
  distance: number;
  preOrderTime: Date | null;
  startTime: Date | null;
  arrivalAt: Date | null;
  cancelReason: string;
  createdAt: Date;
  updatedAt: Date;
  history: StatusChangePlan[];
  extras: Array<{ code: string; count: number; price: number }>;
}

export interface CityPlan {
  key: "main" | "second";
  name: string;
  nameEn: string;
  timezone: string;
  currency: string;
  lat: number;
  lon: number;
  box: Box;
  regions: RegionPlan[];
  services: ServicePlan[];
  roads: RoadPlan;
  streets: StreetPlan[];
  drivers: DriverPlan[];
  customers: CustomerPlan[];
  orders: OrderPlan[];
}

export interface DemoPlan {
  cities: CityPlan[];
  clients: ClientPlan[];
  blacklist: Array<{ phone: string; reason: string }>;
  carClasses: Array<{ id: string; nameEn: string; nameRu: string; cars: Array<{ brand: string; model: string; year: number }> }>;
  carOptions: Array<{ id: string; name: string; type: "general" | "extra"; access: string }>;
}

// ---------------------------------------------------------------- helpers

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const BLACKLISTED_PHONE = "+79990000000";

/** Unique phones "+79XXXXXXXXX" (E.164, as stored) across the whole city. */
class PhoneBook {
  private readonly used = new Set<string>([BLACKLISTED_PHONE]);
  private static readonly CODES = ["03", "05", "06", "09", "15", "16", "17", "25", "26", "36", "55", "60", "62", "63", "65", "67", "68", "77", "85", "91", "99"];

  next(rng: Rng): string {
    for (;;) {
      const phone = `+79${rng.pick(PhoneBook.CODES)}${rng.digits(7)}`;
      if (!this.used.has(phone)) {
        this.used.add(phone);
        return phone;
      }
    }
  }
}

function ago(now: Date, ms: number): Date {
  return new Date(now.getTime() - ms);
}

function roundTo(value: number, step: number): number {
  return Math.round(value / step) * step;
}

/** The hour of the day in Moscow (UTC+3 all year since 2014). */
function moscowHour(at: Date): number {
  return (at.getUTCHours() + 3) % 24;
}

function ordinal(n: number, gender: Gender): string {
  return `${n}-${gender === "f" ? "я" : gender === "m" ? "й" : "е"}`;
}

// ---------------------------------------------------------------- regions

interface CityGeo {
  box: Box;
  shapes: RegionShape[];
  regions: RegionPlan[];
}

function buildRegions(rng: Rng, box: Box, rows: number, cols: number, names: ReadonlyArray<readonly [string, string]>): CityGeo {
  const polygons = regionGrid(rng, box, rows, cols);
  const shapes = regionShapes(names.map(([ru]) => ru), polygons);
  const regions = shapes.map((shape, index) => ({
    name: shape.name,
    nameEn: names[index]?.[1] ?? shape.name,
    polygon: shape.polygon,
    ...shape.bounds,
  }));
  return { box, shapes, regions };
}

// ---------------------------------------------------------------- services

type Tariff = Pick<RateFields, "pickUp" | "minFare" | "kmCost" | "minuteCost" | "standCost" | "waitCost" | "freeWaitTime">;

const TARIFFS: Record<ServiceKind, Tariff> = {
  economy: { pickUp: 9900, minFare: 19900, kmCost: 2200, minuteCost: 800, standCost: 1000, waitCost: 900, freeWaitTime: 5 },
  comfort: { pickUp: 14900, minFare: 29900, kmCost: 3200, minuteCost: 1100, standCost: 1200, waitCost: 1200, freeWaitTime: 5 },
  business: { pickUp: 29900, minFare: 59900, kmCost: 6000, minuteCost: 2000, standCost: 2000, waitCost: 2000, freeWaitTime: 7 },
  minivan: { pickUp: 19900, minFare: 39900, kmCost: 3800, minuteCost: 1300, standCost: 1300, waitCost: 1300, freeWaitTime: 7 },
};

const SERVICE_NAMES: Record<ServiceKind, { name: string; nameEn: string; description: string; carClass: number }> = {
  economy: { name: "Эконом", nameEn: "Economy", description: "Недорогие поездки по городу", carClass: 1 },
  comfort: { name: "Комфорт", nameEn: "Comfort", description: "Просторные машины поновее", carClass: 2 },
  business: { name: "Бизнес", nameEn: "Business", description: "Автомобили представительского класса", carClass: 3 },
  // A minivan sells and buys on the exchange as a comfort-class car.
  minivan: { name: "Минивэн", nameEn: "Minivan", description: "До 7 пассажиров и много багажа", carClass: 2 },
};

const MAIN_QUEUE = "Основная";
const AIRPORT_QUEUE = "Аэропорт";

function money(value: number, factor: number): number {
  return roundTo(value * factor, 100);
}

function buildService(kind: ServiceKind, sortOrder: number, priceFactor: number, regions: string[], airport: boolean): ServicePlan {
  const names = SERVICE_NAMES[kind];
  const t = TARIFFS[kind];
  const rate = (rateKind: RateKind, factor: number): RatePlan => ({
    name: `${names.name} — ${rateKind === "day" ? "день" : rateKind === "night" ? "ночь" : "аэропорт"}`,
    kind: rateKind,
    isBasic: rateKind === "day",
    queue: rateKind === "airport" ? AIRPORT_QUEUE : null,
    pickUp: money(t.pickUp, factor),
    minFare: money(t.minFare, factor),
    kmCost: money(t.kmCost, factor),
    kmStart: rateKind === "airport" ? 0 : 2,
    minuteCost: money(t.minuteCost, factor),
    standCost: money(t.standCost, factor),
    freeStandTime: 3,
    waitCost: money(t.waitCost, factor),
    freeWaitTime: rateKind === "airport" ? 15 : t.freeWaitTime,
    roundTo: 1000,
    startHour: rateKind === "day" ? 6 : rateKind === "night" ? 22 : null,
    endHour: rateKind === "day" ? 22 : rateKind === "night" ? 6 : null,
  });
  const rates = [rate("day", priceFactor), rate("night", priceFactor * 1.2)];
  if (airport) {
    const airportRate = rate("airport", priceFactor);
    airportRate.pickUp = money(49900, priceFactor);
    airportRate.minFare = money(99900, priceFactor);
    rates.push(airportRate);
  }
  const extra = (code: string, name: string, nameEn: string, shortName: string, price: number, more: Partial<ExtraPlan> = {}): ExtraPlan => ({
    code,
    name,
    nameEn,
    shortName,
    price: money(price, priceFactor),
    allowMultiple: false,
    isDefault: false,
    queue: null,
    ...more,
  });
  const extras: ExtraPlan[] = [
    extra("CHILD_SEAT", "Детское кресло", "Child seat", "Д", 15000, { allowMultiple: true }),
    extra("PET", "Перевозка животного", "Pet", "Ж", 20000),
    extra("LUGGAGE", "Багаж", "Luggage", "Б", kind === "minivan" ? 0 : 10000, { allowMultiple: true }),
    extra("NON_SMOKING", "Некурящий водитель", "Non-smoking driver", "Н", 0, { isDefault: true }),
  ];
  if (kind === "economy") extras.push(extra("AIR_CONDITIONER", "Кондиционер", "Air conditioning", "К", 5000));
  if (airport) extras.push(extra("MEET_SIGN", "Встреча с табличкой", "Meeting with a name sign", "Т", 30000, { queue: AIRPORT_QUEUE }));
  const queues = [{ name: MAIN_QUEUE, isMain: true }];
  if (airport) queues.push({ name: AIRPORT_QUEUE, isMain: false });
  return { kind, ...names, sortOrder, queues, rates, extras, regions };
}

// ---------------------------------------------------------------- streets

type Stem = { noun: string } | { adjective: string };

function stemForm(stem: Stem, prefix: StreetPrefix): string {
  return "noun" in stem ? stem.noun : adjectiveForm(stem.adjective, genderOf(prefix));
}

const PRIMARY_PREFIX: ReadonlyArray<readonly [StreetPrefix, number]> = [
  ["ул.", 62],
  ["пер.", 14],
  ["пр-т", 8],
  ["б-р", 6],
  ["ш.", 5],
  ["пл.", 5],
];

/** Street names in the order they are taken: canonical, one form per stem, other forms, numbered. */
function* streetNames(rng: Rng, canonical: ReadonlyArray<readonly [StreetPrefix, string]>): Generator<readonly [StreetPrefix, string]> {
  yield* canonical;
  const stems: Stem[] = rng.shuffle([
    ...NOUN_STREETS.map((noun): Stem => ({ noun })),
    ...ADJECTIVE_STREETS.map((adjective): Stem => ({ adjective })),
  ]);
  for (const stem of stems) {
    const prefix = rng.weighted(PRIMARY_PREFIX);
    yield [prefix, stemForm(stem, prefix)];
  }
  const combos = rng.shuffle(stems.flatMap((stem) => PREFIXES.map((p) => [p.prefix, stem] as const)));
  for (const [prefix, stem] of combos) yield [prefix, stemForm(stem, prefix)];
  const numberable = combos.filter(([, stem]) => !/^\d/.test("noun" in stem ? stem.noun : stem.adjective));
  for (let n = 1; ; n++) {
    for (const [prefix, stem] of rng.shuffle(numberable)) {
      yield [prefix, `${ordinal(n, genderOf(prefix))} ${stemForm(stem, prefix)}`];
    }
  }
}

const STREET_SHAPE: Record<StreetPrefix, { length: [number, number]; houses: [number, number] }> = {
  "ул.": { length: [600, 4000], houses: [5, 25] },
  "пр-т": { length: [3000, 7000], houses: [10, 25] },
  "пер.": { length: [200, 800], houses: [5, 10] },
  "пл.": { length: [100, 300], houses: [5, 8] },
  "б-р": { length: [800, 2500], houses: [5, 15] },
  "ш.": { length: [4000, 9000], houses: [8, 25] },
};

/** House numbers of one street: mostly plain, some with a letter, a block, a building or a corner number. */
function houseNumbers(rng: Rng, count: number): Array<{ number: string; base: number; sub: number }> {
  const out: Array<{ number: string; base: number; sub: number }> = [];
  let base = 1;
  while (out.length < count) {
    const style = rng.weighted<"plain" | "letter" | "block" | "building" | "corner">([
      ["plain", 70],
      ["letter", 9],
      ["block", 9],
      ["building", 6],
      ["corner", 6],
    ]);
    switch (style) {
      case "plain":
        out.push({ number: String(base), base, sub: 0 });
        break;
      case "letter":
        out.push({ number: String(base), base, sub: 0 });
        out.push({ number: `${base}${rng.pick(["А", "Б", "В"])}`, base, sub: 1 });
        break;
      case "block": {
        const blocks = rng.int(2, 3);
        for (let k = 1; k <= blocks; k++) out.push({ number: `${base}к${k}`, base, sub: k - 1 });
        break;
      }
      case "building":
        out.push({ number: `${base}с${rng.int(1, 3)}`, base, sub: 0 });
        break;
      case "corner":
        out.push({ number: `${base}/${rng.int(1, 40)}`, base, sub: 0 });
        break;
    }
    base += rng.chance(0.15) ? 2 : 1;
  }
  return out.slice(0, count);
}

const WAY_SIZE: Record<StreetPrefix, WaySize> = { "ш.": "long", "пр-т": "long", "ул.": "medium", "б-р": "medium", "пер.": "short", "пл.": "short" };

/**
 * A street along a way of the road network (`line`), its houses on both
 * sides; with no way left (a benchmark city of more streets than ways), a
 * straight street of its own. The random draws are the same either way, so
 * the house numbers do not depend on the network.
 */
function buildStreet(
  rng: Rng,
  geo: CityGeo,
  prefix: StreetPrefix,
  name: string,
  way?: { line: LatLon[]; segments: number[] },
): StreetPlan {
  const fullName = `${prefix} ${name}`;
  const shape = STREET_SHAPE[prefix];
  const segment = streetSegment(rng, geo.box, rng.range(shape.length[0], shape.length[1]), 0.004);
  const [aLat, aLon] = way ? way.line[0]! : segment.a;
  const [bLat, bLon] = way ? way.line[way.line.length - 1]! : segment.b;
  const numbers = houseNumbers(rng, rng.int(shape.houses[0], shape.houses[1]));
  const maxBase = numbers.reduce((m, h) => Math.max(m, h.base), 1);
  const pairs = Math.ceil(maxBase / 2) + 1;
  // A unit vector along a straight street, in metres (north, east); across it is that turned a quarter.
  const northM = (bLat - aLat) * 111_320;
  const eastM = (bLon - aLon) * 111_320 * Math.cos((aLat * Math.PI) / 180);
  const len = Math.hypot(northM, eastM) || 1;
  const alongN = northM / len;
  const alongE = eastM / len;
  const houses: HousePlan[] = numbers.map(({ number, base, sub }) => {
    const t = Math.ceil(base / 2) / pairs;
    const side = base % 2 === 1 ? 1 : -1; // odd numbers on one side, even on the other
    const at = way ? pointAlong(way.line, t) : { lat: aLat + (bLat - aLat) * t, lon: aLon + (bLon - aLon) * t, north: alongN, east: alongE };
    const across = side * (14 + rng.range(-3, 3) + sub * 18);
    const along = sub * 12 + rng.range(-4, 4);
    const [lat, lon] = offsetMetres(at.lat, at.lon, -at.east * across + at.north * along, at.north * across + at.east * along);
    const rLat = round6(lat);
    const rLon = round6(lon);
    return { number, numberKey: normalizeHouse(number), lat: rLat, lon: rLon, region: regionOf(rLat, rLon, geo.shapes) };
  });
  return {
    kind: "STREET",
    prefix,
    name,
    fullName,
    searchKey: normalizeForSearch(fullName),
    lat: round6(way ? pointAlong(way.line, 0.5).lat : (aLat + bLat) / 2),
    lon: round6(way ? pointAlong(way.line, 0.5).lon : (aLon + bLon) / 2),
    words: searchWords(fullName),
    houses,
    segments: way?.segments ?? [],
  };
}

function buildPublicPlace(geo: CityGeo, place: PublicPlace): StreetPlan {
  const [lat, lon] = clampToBox(place.lat, place.lon, geo.box, 0.004);
  return {
    kind: "PUBLIC_PLACE",
    prefix: "",
    name: place.name,
    fullName: place.name,
    searchKey: normalizeForSearch(place.name),
    lat: round6(lat),
    lon: round6(lon),
    words: searchWords(place.name),
    houses: [],
    segments: [],
  };
}

function buildStreets(
  rng: Rng,
  geo: CityGeo,
  roads: RoadPlan,
  total: number,
  places: readonly PublicPlace[],
  canonical: ReadonlyArray<readonly [StreetPrefix, string]>,
): StreetPlan[] {
  const ways = new WayPicker(roads, rng.fork("ways"));
  const placeCount = Math.min(places.length, Math.max(0, Math.floor(total / 8)));
  const streetCount = Math.max(0, total - placeCount);
  const names = rng.fork("names");
  const shapes = rng.fork("shapes");
  const seen = new Set<string>();
  const streets: StreetPlan[] = [];
  for (const place of places.slice(0, placeCount)) {
    const plan = buildPublicPlace(geo, place);
    seen.add(plan.searchKey);
    streets.push(plan);
  }
  const generator = streetNames(names, canonical);
  let made = 0;
  while (made < streetCount) {
    const next = generator.next();
    if (next.done) break;
    const [prefix, name] = next.value;
    const key = normalizeForSearch(`${prefix} ${name}`);
    if (seen.has(key)) continue;
    seen.add(key);
    // The well-known names (the canonical ones, first) get the central ways.
    const segments = ways.take(WAY_SIZE[prefix], made < canonical.length);
    const way = segments ? { segments, line: wayLine(roads, { kind: "street", segments }) } : undefined;
    streets.push(buildStreet(shapes, geo, prefix, name, way));
    made++;
  }
  // Streets first, then public places: ids of streets come first.
  return [...streets.slice(placeCount), ...streets.slice(0, placeCount)];
}

// ---------------------------------------------------------------- people

function personName(rng: Rng, female: boolean): { firstName: string; lastName: string; middleName: string } {
  const surname = rng.pick(SURNAMES);
  const patronymic = rng.pick(PATRONYMICS);
  return female
    ? { firstName: rng.pick(FEMALE_FIRST), lastName: `${surname}а`, middleName: patronymic[1] }
    : { firstName: rng.pick(MALE_FIRST), lastName: surname, middleName: patronymic[0] };
}

function plate(rng: Rng, regions: readonly string[]): string {
  const letter = () => PLATE_LETTERS[rng.int(0, PLATE_LETTERS.length - 1)]!;
  const digits = String(rng.int(1, 999)).padStart(3, "0");
  return `${letter()}${digits}${letter()}${letter()}${rng.pick(regions)}`;
}

const CAR_CLASS_OF: Record<ServiceKind, number> = { economy: 1, comfort: 2, business: 3, minivan: 2 };

/** Which services (by kind) a driver with a car of this kind serves. */
const SERVES: Record<ServiceKind, ServiceKind[]> = {
  economy: ["economy"],
  comfort: ["economy", "comfort"],
  business: ["economy", "comfort", "business"],
  minivan: ["economy", "minivan"],
};

interface DriverSetup {
  count: number;
  callSign: (index: number) => string;
  kinds: Array<readonly [ServiceKind, number]>;
  states: { FREE: number; BUSY: number; OFFLINE: number };
  plateRegions: readonly string[];
  permitPrefix: string;
}

function buildDrivers(
  rng: Rng,
  now: Date,
  setup: DriverSetup,
  services: readonly ServicePlan[],
  streets: readonly StreetPlan[],
  geo: CityGeo,
  phones: PhoneBook,
): DriverPlan[] {
  const kinds = rng.shuffle(setup.kinds.flatMap(([kind, n]) => Array.from({ length: n }, () => kind)));
  const states = rng.shuffle([
    ...Array.from({ length: setup.states.FREE }, () => "FREE" as const),
    ...Array.from({ length: setup.states.BUSY }, () => "BUSY" as const),
    ...Array.from({ length: setup.states.OFFLINE }, () => "OFFLINE" as const),
  ]);
  const houses = streets.flatMap((s) => s.houses);
  // A stream of its own, so that the rest of the city stays as it was.
  const shiftStarts = rng.fork("shift-starts");
  const drivers: DriverPlan[] = [];
  for (let i = 0; i < setup.count; i++) {
    const kind = kinds[i] ?? "economy";
    const state = states[i] ?? "FREE";
    const female = rng.chance(0.08);
    const person = personName(rng, female);
    const model = rng.pick(CARS_BY_KIND[kind]);
    const carClass = CAR_CLASS_OF[kind];
    const options = [
      rng.chance(0.3) ? 1 : 0, // child seat
      rng.chance(0.12) ? 2 : 0, // pets
      kind === "minivan" || rng.chance(0.3) ? 3 : 0, // luggage
      rng.chance(0.5) ? 4 : 0, // non-smoking
      kind !== "economy" || rng.chance(0.8) ? 5 : 0, // air conditioning
      rng.chance(0.6) ? 6 : 0, // card payment
      rng.chance(0.2) ? 7 : 0, // branded car
    ].filter((o) => o > 0);
    const spot = houses.length > 0 ? rng.pick(houses) : { lat: geo.box.minLat + 0.05, lon: geo.box.minLon + 0.05 };
    const [lat, lon] = clampToBox(...offsetMetres(spot.lat, spot.lon, rng.range(-150, 150), rng.range(-150, 150)), geo.box, 0.002);
    const moving = state !== "OFFLINE" && rng.chance(state === "BUSY" ? 0.8 : 0.45);
    const opening = rng.chance(0.1) ? -BigInt(rng.int(5, 50) * 1000) : BigInt(rng.int(0, 150) * 10000 + rng.int(0, 99) * 100);
    const callSign = setup.callSign(i);
    drivers.push({
      callSign,
      ...person,
      phone: phones.next(rng),
      permitNumber: `${setup.permitPrefix} ${rng.digits(6)}`,
      state,
      balance: opening,
      lat: round6(lat),
      lon: round6(lon),
      speed: moving ? Math.round(rng.range(12, 55)) : 0,
      bearing: rng.int(0, 359),
      positionAt: state === "OFFLINE" ? ago(now, rng.int(60, 720) * MINUTE) : ago(now, rng.int(0, 20) * 1000),
      shiftStartedAt: state === "OFFLINE" ? null : ago(now, shiftStarts.int(60, 600) * MINUTE),
      region: regionOf(lat, lon, geo.shapes),
      createdAt: ago(now, rng.int(20, 900) * DAY),
      kind,
      car: {
        brand: model.brand,
        model: model.model,
        color: rng.weighted(CAR_COLORS),
        regNumber: plate(rng, setup.plateRegions),
        year: rng.int(Math.max(2015, model.minYear), 2024),
        carClass,
        options,
      },
      services: services.filter((s) => SERVES[kind].includes(s.kind)).map((s) => s.name),
      ledger: [
        {
          txnId: `seed-driver-${callSign}`,
          amount: opening,
          balanceAfter: opening,
          reason: "Начальный остаток",
          createdAt: ago(now, 2 * DAY + i * MINUTE),
        },
      ],
    });
  }
  return drivers;
}

function buildCustomers(
  rng: Rng,
  now: Date,
  companies: ReadonlyArray<{ name: string; contract: string }>,
  counter: { n: number },
): CustomerPlan[] {
  return companies.map((company, index) => {
    const ledger: LedgerPlan[] = [];
    let balance = 0n;
    const entries = rng.int(1, 3);
    for (let k = 0; k < entries; k++) {
      const deposit = k === 0 || rng.chance(0.5);
      const amount = deposit ? BigInt(rng.int(20, 300) * 100_000) : -BigInt(rng.int(5, 150) * 10_000 + rng.int(0, 99) * 100);
      balance += amount;
      counter.n += 1;
      ledger.push({
        txnId: `seed-customer-${counter.n}`,
        amount,
        balanceAfter: balance,
        reason: deposit ? "Пополнение по договору" : "Поездки сотрудников за период",
        createdAt: ago(now, (30 - k * 7) * DAY + index * HOUR),
      });
    }
    return { name: company.name, contract: company.contract, balance, createdAt: ago(now, rng.int(90, 700) * DAY), ledger };
  });
}

function buildClients(rng: Rng, now: Date, count: number, phones: PhoneBook): ClientPlan[] {
  const clients: ClientPlan[] = [];
  let n = 0;
  for (let i = 0; i < count; i++) {
    const female = rng.chance(0.55);
    const person = personName(rng, female);
    const name = rng.chance(0.7) ? `${person.firstName} ${person.lastName}` : person.firstName;
    const bonusLog: ClientPlan["bonusLog"] = [];
    let bonus = 0;
    if (rng.chance(0.6)) {
      const entries = rng.int(1, 4);
      for (let k = 0; k < entries; k++) {
        const spend = k > 0 && bonus >= 5000 && rng.chance(0.3);
        const amount = spend ? -roundTo(rng.range(0.3, 1) * bonus, 100) : rng.int(20, 150) * 100;
        bonus += amount;
        n += 1;
        bonusLog.push({
          txnId: `seed-client-${n}`,
          amount,
          bonusAfter: bonus,
          reason: spend ? "Оплата поездки бонусами" : "Начисление за поездку",
          createdAt: ago(now, (20 - k * 4) * DAY + i * HOUR),
        });
      }
    }
    clients.push({ phone: phones.next(rng), name, bonus, createdAt: ago(now, rng.int(5, 400) * DAY), bonusLog });
  }
  return clients;
}

// ---------------------------------------------------------------- orders

type Path = readonly OrderState[];

interface OrderSpec {
  count: number;
  paths: readonly Path[];
}

const TO_DRIVER: Path = ["FREE", "SENT_TO_DRIVER"];
const CONFIRMED: Path = [...TO_DRIVER, "CONFIRMED"];
const WAITING: Path = [...CONFIRMED, "AWAITING_CLIENT"];
const RIDING: Path = [...WAITING, "IN_PROCESS"];

const MAIN_ORDERS: readonly OrderSpec[] = [
  { count: 6, paths: [["ON_MODERATION"]] },
  { count: 8, paths: [["FREE"]] },
  { count: 1, paths: [["FREE", "FREE_LONG"]] },
  { count: 1, paths: [["FREE", "ORDER_ON_RADIO"]] },
  { count: 3, paths: [TO_DRIVER, ["ON_MODERATION", "SENT_TO_DRIVER"]] },
  { count: 3, paths: [CONFIRMED, ["FREE", "SENT_TO_DRIVER", "RECEIVED_BY_DRIVER", "CONFIRMED"]] },
  { count: 3, paths: [WAITING, [...CONFIRMED, "CONFIRMED_CLIENT_NOTIFIED", "AWAITING_CLIENT"]] },
  { count: 5, paths: [RIDING, [...WAITING, "AWAITING_CLIENT_NOTIFIED", "IN_PROCESS"]] },
  { count: 1, paths: [[...RIDING, "AWAITING_PAYMENT"]] },
  { count: 4, paths: [["PREORDER_FREE"], ["ON_MODERATION", "PREORDER_FREE"]] },
  { count: 1, paths: [["PREORDER_FREE", "PREORDER_ATTACHED"]] },
  { count: 15, paths: [[...RIDING, "DONE_SUCCESSFUL"], [...RIDING, "AWAITING_PAYMENT", "DONE_SUCCESSFUL"]] },
  { count: 5, paths: [["FREE", "DONE_CANCELLED"], [...CONFIRMED, "DONE_CANCELLED"]] },
  { count: 2, paths: [["FREE", "FREE_LONG", "DONE_NO_CARS"]] },
  { count: 1, paths: [["ON_MODERATION", "DONE_OPERATOR_REJECTED"]] },
  { count: 1, paths: [[...WAITING, "AWAITING_CLIENT_NOTIFIED", "AWAITING_CLIENT_LONG", "DONE_CALL_FAILED"]] },
];

const SECOND_ORDERS: readonly OrderSpec[] = [
  { count: 1, paths: [["ON_MODERATION"]] },
  { count: 2, paths: [["FREE"]] },
  { count: 1, paths: [CONFIRMED] },
  { count: 1, paths: [RIDING] },
  { count: 1, paths: [["PREORDER_FREE"]] },
  { count: 2, paths: [[...RIDING, "DONE_SUCCESSFUL"]] },
];

/** Seconds an order spends before entering `to` (after the previous move). */
function stepSeconds(rng: Rng, from: OrderState, to: OrderState, rideSeconds: number): number {
  switch (to) {
    case "SENT_TO_DRIVER":
      return from === "ON_MODERATION" ? rng.int(60, 300) : rng.int(15, 120);
    case "RECEIVED_BY_DRIVER":
    case "CONFIRMED_CLIENT_NOTIFIED":
      return rng.int(2, 10);
    case "CONFIRMED":
      return rng.int(5, 40);
    case "AWAITING_CLIENT":
      return rng.int(180, 720);
    case "AWAITING_CLIENT_NOTIFIED":
      return rng.int(5, 30);
    case "AWAITING_CLIENT_LONG":
      return rng.int(300, 420);
    case "IN_PROCESS":
      return rng.int(60, 300);
    case "AWAITING_PAYMENT":
      return rideSeconds;
    case "DONE_SUCCESSFUL":
      return from === "IN_PROCESS" ? rideSeconds : rng.int(30, 120);
    case "FREE_LONG":
      return rng.int(600, 900);
    case "ORDER_ON_RADIO":
      return rng.int(120, 400);
    case "PREORDER_FREE":
      return rng.int(60, 300);
    case "PREORDER_ATTACHED":
      return rng.int(300, 3600);
    default:
      return rng.int(60, 600);
  }
}

/** Seconds since the order entered its current state. */
function dwellSeconds(rng: Rng, state: OrderState, rideSeconds: number): number {
  switch (state) {
    case "ON_MODERATION":
      return rng.int(30, 900);
    case "FREE":
      return rng.int(20, 400);
    case "FREE_LONG":
      return rng.int(10, 300);
    case "ORDER_ON_RADIO":
      return rng.int(30, 200);
    case "SENT_TO_DRIVER":
      return rng.int(5, 50);
    case "CONFIRMED":
      return rng.int(30, 300);
    case "AWAITING_CLIENT":
      return rng.int(20, 240);
    case "IN_PROCESS":
      return Math.round(rideSeconds * rng.range(0.15, 0.85));
    case "AWAITING_PAYMENT":
      return rng.int(10, 90);
    case "PREORDER_FREE":
      return rng.int(600, 3 * 3600);
    case "PREORDER_ATTACHED":
      return rng.int(300, 3600);
    default:
      return rng.int(5 * 60, 5 * 3600); // done: within the last hours
  }
}

const SYSTEM_MESSAGES = ["Первый заказ с этого номера", "Дальняя поездка", "Крупная сумма заказа", "Адрес на границе зоны обслуживания"] as const;

interface Place {
  street: string;
  house: string;
  lat: number;
  lon: number;
  region: string | null;
  airport: boolean;
}

function pickPlace(rng: Rng, streets: readonly StreetPlan[], places: readonly StreetPlan[], geo: CityGeo): Place {
  if (places.length > 0 && rng.chance(0.15)) {
    const p = rng.pick(places);
    return { street: p.fullName, house: "", lat: p.lat, lon: p.lon, region: regionOf(p.lat, p.lon, geo.shapes), airport: p.name.startsWith("Аэропорт") };
  }
  const street = rng.pick(streets);
  const house = rng.pick(street.houses);
  return { street: street.fullName, house: house.number, lat: house.lat, lon: house.lon, region: house.region, airport: false };
}

function priceOf(rate: RatePlan, distanceM: number, extras: number): number {
  const km = distanceM / 1000;
  const minutes = (km / 30) * 60;
  const raw = rate.pickUp + Math.max(0, km - rate.kmStart) * rate.kmCost + minutes * rate.minuteCost + extras;
  const fare = Math.max(rate.minFare, raw);
  return Math.ceil(fare / rate.roundTo) * rate.roundTo;
}

interface OrderContext {
  rng: Rng;
  now: Date;
  geo: CityGeo;
  services: readonly ServicePlan[];
  streets: readonly StreetPlan[];
  drivers: DriverPlan[];
  customers: readonly CustomerPlan[];
  clients: readonly ClientPlan[];
  phones: PhoneBook;
}

function buildOrders(ctx: OrderContext, specs: readonly OrderSpec[]): OrderPlan[] {
  const { rng, now, geo, services, drivers } = ctx;
  const streets = ctx.streets.filter((s) => s.kind === "STREET" && s.houses.length > 0);
  const places = ctx.streets.filter((s) => s.kind === "PUBLIC_PLACE");
  const busy = drivers.filter((d) => d.state === "BUSY");
  let nextBusy = 0;
  const serviceByName = new Map(services.map((s) => [s.name, s]));
  const economy = services.find((s) => s.kind === "economy");
  if (!economy) throw new Error("a city without an economy service");

  const jobs = specs.flatMap((spec) => Array.from({ length: spec.count }, (_, k) => spec.paths[k % spec.paths.length]!));
  const orders: OrderPlan[] = [];
  for (const path of rng.shuffle(jobs)) {
    for (let k = 1; k < path.length; k++) {
      if (!canMove(path[k - 1]!, path[k]!)) throw new Error(`demo order path ${path.join(" > ")} is not a valid move`);
    }
    const state = path[path.length - 1]!;
    const holding = DRIVER_HOLDING_STATES.includes(state);
    const withDriver = path.includes("SENT_TO_DRIVER") || path.includes("PREORDER_ATTACHED");

    // The driver first: a holding order needs a busy driver, and takes its service from the driver.
    let driver: DriverPlan | null = null;
    if (holding) {
      driver = busy[nextBusy++] ?? null;
      if (!driver) throw new Error("not enough busy drivers for the demo orders");
    }
    let service: ServicePlan;
    if (driver) {
      const own = driver.services.map((name) => serviceByName.get(name)).filter((s): s is ServicePlan => s !== undefined);
      service = rng.chance(0.55) ? economy : rng.pick(own.length > 0 ? own : [economy]);
    } else {
      service = rng.weighted(services.map((s) => [s, s.kind === "economy" ? 10 : s.kind === "comfort" ? 5 : 2] as const));
    }
    if (!driver && withDriver) {
      const able = drivers.filter((d) => d.services.includes(service.name));
      driver = able.length > 0 ? rng.pick(able) : null;
    }

    // Where from and where to.
    const pickup = pickPlace(rng, streets, places, geo);
    let dst = pickPlace(rng, streets, places, geo);
    for (let attempt = 0; attempt < 8; attempt++) {
      const d = haversineMetres(pickup.lat, pickup.lon, dst.lat, dst.lon);
      if (d >= 1500 && d <= 25_000 && dst.street !== pickup.street) break;
      dst = pickPlace(rng, streets, places, geo);
    }
    const points: Place[] = [pickup];
    if (rng.chance(0.1)) {
      // A stop on the way: the candidate that lengthens the trip least.
      let best: Place | null = null;
      let bestDetour = Infinity;
      for (let attempt = 0; attempt < 12; attempt++) {
        const stop = pickPlace(rng, streets, [], geo);
        const detour =
          haversineMetres(pickup.lat, pickup.lon, stop.lat, stop.lon) + haversineMetres(stop.lat, stop.lon, dst.lat, dst.lon);
        if (detour < bestDetour) {
          best = stop;
          bestDetour = detour;
        }
      }
      if (best) points.push(best);
    }
    points.push(dst);
    let straight = 0;
    for (let k = 1; k < points.length; k++) {
      straight += haversineMetres(points[k - 1]!.lat, points[k - 1]!.lon, points[k]!.lat, points[k]!.lon);
    }
    const distance = Math.round((straight * 1.3) / 10) * 10;
    const rideSeconds = Math.max(300, Math.round(distance * 0.12));

    // Times: the moves back from now.
    const steps = path.map((to, k) => (k === 0 ? 0 : stepSeconds(rng, path[k - 1]!, to, rideSeconds)));
    const dwell = dwellSeconds(rng, state, rideSeconds);
    const total = steps.reduce((sum, s) => sum + s, 0) + dwell;
    const createdAt = ago(now, total * 1000);
    let t = createdAt.getTime();
    const history: StatusChangePlan[] = path.map((to, k) => {
      t += steps[k]! * 1000;
      const reason =
        to === "DONE_CANCELLED" ? rng.pick(CANCEL_REASONS)
        : to === "DONE_OPERATOR_REJECTED" ? "Заказ не прошёл модерацию"
        : to === "DONE_NO_CARS" ? "Нет свободных машин"
        : to === "DONE_CALL_FAILED" ? "Клиент не вышел и не отвечает"
        : "";
      return { fromState: k === 0 ? null : path[k - 1]!, toState: to, toCode: ORDER_STATES[to], reason, at: new Date(t) };
    });
    const changeAt = (s: OrderState) => history.find((h) => h.toState === s)?.at ?? null;

    const preorder = path[0] === "PREORDER_FREE" || path.includes("PREORDER_FREE");
    const preOrderTime = preorder ? new Date(Math.ceil((now.getTime() + rng.int(60, 20 * 60) * MINUTE) / (5 * MINUTE)) * 5 * MINUTE) : null;

    // Queue and rate.
    const airportQueue = pickup.airport && service.queues.some((q) => q.name === AIRPORT_QUEUE);
    const queue = airportQueue ? AIRPORT_QUEUE : MAIN_QUEUE;
    const hour = moscowHour(preOrderTime ?? createdAt);
    const rate = airportQueue
      ? service.rates.find((r) => r.kind === "airport")
      : service.rates.find((r) => r.kind === (hour >= 6 && hour < 22 ? "day" : "night"));
    if (!rate) throw new Error(`no rate for ${service.name}`);

    // Extras.
    const extras: OrderPlan["extras"] = [];
    for (const extra of service.extras) {
      if (extra.queue !== null && extra.queue !== queue) continue;
      const want =
        extra.code === "CHILD_SEAT" ? rng.chance(0.12)
        : extra.code === "PET" ? rng.chance(0.06)
        : extra.code === "LUGGAGE" ? rng.chance(pickup.airport ? 0.6 : 0.08)
        : extra.code === "MEET_SIGN" ? rng.chance(0.3)
        : false;
      if (want) extras.push({ code: extra.code, count: extra.allowMultiple ? rng.weighted([[1, 4], [2, 1]] as const) : 1, price: extra.price });
    }
    const extrasCost = extras.reduce((sum, e) => sum + e.count * e.price, 0);

    // Who orders.
    const fromClient = ctx.clients.length > 0 && rng.chance(0.55);
    const client = fromClient ? rng.pick(ctx.clients) : null;
    const customer = ctx.customers.length > 0 && rng.chance(0.1) ? rng.pick(ctx.customers) : null;
    const phone = client ? client.phone : ctx.phones.next(rng);
    const clientName = client ? client.name : rng.chance(0.6) ? rng.pick(rng.chance(0.5) ? MALE_FIRST : FEMALE_FIRST) : "";
    const moderated = path[0] === "ON_MODERATION";
    const source = moderated ? "API" : rng.chance(0.6) ? "API" : "CONSOLE";

    // A busy driver is where the order puts him.
    if (driver && holding) {
      let lat: number;
      let lon: number;
      let speed: number;
      if (state === "SENT_TO_DRIVER" || state === "CONFIRMED" || state === "RECEIVED_BY_DRIVER" || state === "CONFIRMED_CLIENT_NOTIFIED") {
        [lat, lon] = offsetMetres(pickup.lat, pickup.lon, rng.range(-2000, 2000), rng.range(-2000, 2000));
        speed = rng.int(15, 55);
        driver.bearing = Math.round(bearingDegrees(lat, lon, pickup.lat, pickup.lon));
      } else if (state === "IN_PROCESS" || state === "AWAITING_PAYMENT") {
        const f = state === "AWAITING_PAYMENT" ? 1 : Math.min(0.9, Math.max(0.1, dwell / rideSeconds));
        lat = pickup.lat + (dst.lat - pickup.lat) * f;
        lon = pickup.lon + (dst.lon - pickup.lon) * f;
        speed = state === "AWAITING_PAYMENT" ? 0 : rng.int(20, 70);
        driver.bearing = Math.round(bearingDegrees(pickup.lat, pickup.lon, dst.lat, dst.lon));
      } else {
        [lat, lon] = offsetMetres(pickup.lat, pickup.lon, rng.range(-15, 15), rng.range(-15, 15));
        speed = 0;
      }
      [lat, lon] = clampToBox(lat, lon, geo.box, 0.002);
      driver.lat = round6(lat);
      driver.lon = round6(lon);
      driver.speed = speed;
      driver.region = regionOf(driver.lat, driver.lon, geo.shapes);
    }

    const wayPoints: WayPoint[] = points.map((p) => ({ street: p.street, house: p.house, lat: p.lat, lon: p.lon }));
    const oneLine = (p: Place) => (p.house ? `${p.street}, ${p.house}` : p.street);
    const arrival = changeAt("CONFIRMED");
    const last = history[history.length - 1]!;
    orders.push({
      uuid: rng.uuid(),
      service: service.name,
      queue,
      rate: rate.name,
      region: pickup.region,
      clientPhone: client ? client.phone : null,
      customer: customer ? customer.name : null,
      driver: driver ? driver.callSign : null,
      source,
      state,
      statusCode: ORDER_STATES[state],
      phone,
      clientName,
      street: pickup.street,
      house: pickup.house,
      apartment: pickup.house && rng.chance(0.2) ? String(rng.int(1, 300)) : "",
      entrance: pickup.house && rng.chance(0.3) ? String(rng.int(1, 8)) : "",
      lat: pickup.lat,
      lon: pickup.lon,
      dst: oneLine(dst),
      dstStreet: dst.street,
      dstHouse: dst.house,
      dstLat: dst.lat,
      dstLon: dst.lon,
      wayPoints,
      comment: customer ? "Оплата по договору" : rng.chance(0.25) ? rng.pick(ORDER_COMMENTS) : "",
      systemMessage: moderated ? rng.pick(SYSTEM_MESSAGES) : "",
      amount: priceOf(rate, distance, extrasCost),
      distance,
      preOrderTime,
      startTime: changeAt("IN_PROCESS"),
      arrivalAt: arrival ? new Date(arrival.getTime() + rng.int(3, 12) * MINUTE) : null,
      cancelReason: last.toState.startsWith("DONE_") && last.toState !== "DONE_SUCCESSFUL" ? last.reason : "",
      createdAt,
      updatedAt: last.at,
      history,
      extras,
    });
  }
  return orders;
}

// ---------------------------------------------------------------- the city

const MAIN_REGIONS: ReadonlyArray<readonly [string, string]> = [
  // south row, west to east
  ["Юго-Запад", "South-West"],
  ["Южный", "South"],
  ["Юго-Восток", "South-East"],
  // middle row
  ["Заречье", "Zarechye"],
  ["Центр", "Centre"],
  ["Восточный", "East"],
  // north row
  ["Северо-Запад", "North-West"],
  ["Северный", "North"],
  ["Северо-Восток", "North-East"],
];

const SECOND_REGIONS: ReadonlyArray<readonly [string, string]> = [
  ["Московский", "Moskovsky"],
  ["Пролетарский", "Proletarsky"],
  ["Заволжский", "Zavolzhsky"],
  ["Центральный", "Central"],
];

const SECOND_CANONICAL: ReadonlyArray<readonly [StreetPrefix, string]> = [
  ["ул.", "Советская"],
  ["пр-т", "Чайковского"],
  ["б-р", "Радищева"],
  ["пл.", "Ленина"],
  ["ш.", "Петербургское"],
  ["пер.", "Свободный"],
  ["ул.", "Трёхсвятская"],
  ["пр-т", "Победы"],
];

export function buildDemoCity(options: DemoOptions = {}): DemoPlan {
  const now = options.now ?? new Date();
  const streetTotal = Math.max(1, Math.floor(options.streets ?? DEFAULT_STREETS));
  const root = new Rng(DEMO_SEED);
  const phones = new PhoneBook();
  const customerCounter = { n: 0 };
  const clients = buildClients(root.fork("clients"), now, 40, phones);

  // The main city.
  const mainBox: Box = MAIN_BOX;
  const mainGeo = buildRegions(root.fork("main:regions"), mainBox, 3, 3, MAIN_REGIONS);
  const allMain = mainGeo.regions.map((r) => r.name);
  const mainServices = [
    buildService("economy", 1, 1, allMain, true),
    buildService("comfort", 2, 1, allMain, false),
    buildService("business", 3, 1, allMain, false),
    buildService("minivan", 4, 1, allMain.filter((n) => n !== "Юго-Восток" && n !== "Северо-Запад"), false),
  ];
  const mainRoads = buildRoadPlan(root.fork("main:roads"), mainBox, { spacing: MAIN_ROAD_SPACING });
  const mainStreets = buildStreets(root.fork("main:streets"), mainGeo, mainRoads, streetTotal, MAIN_PUBLIC_PLACES, CANONICAL_STREETS);
  const mainDrivers = buildDrivers(
    root.fork("main:drivers"),
    now,
    {
      count: 64,
      callSign: (i) => String(101 + i),
      kinds: [["economy", 34], ["comfort", 18], ["business", 8], ["minivan", 4]],
      states: { FREE: 38, BUSY: 16, OFFLINE: 10 },
      plateRegions: ["77", "97", "99", "177", "197", "199", "777", "799", "50", "750"],
      permitPrefix: "МСК",
    },
    mainServices,
    mainStreets,
    mainGeo,
    phones,
  );
  const mainCustomers = buildCustomers(root.fork("main:customers"), now, COMPANIES_MAIN, customerCounter);
  const mainOrders = buildOrders(
    {
      rng: root.fork("main:orders"),
      now,
      geo: mainGeo,
      services: mainServices,
      streets: mainStreets,
      drivers: mainDrivers,
      customers: mainCustomers,
      clients,
      phones,
    },
    MAIN_ORDERS,
  );

  // The second, smaller city.
  const secondBox: Box = { minLat: 56.8, maxLat: 56.92, minLon: 35.74, maxLon: 36.05 };
  const secondGeo = buildRegions(root.fork("second:regions"), secondBox, 2, 2, SECOND_REGIONS);
  const allSecond = secondGeo.regions.map((r) => r.name);
  const secondServices = [buildService("economy", 1, 0.75, allSecond, false), buildService("comfort", 2, 0.75, allSecond, false)];
  const secondRoads = buildRoadPlan(root.fork("second:roads"), secondBox, { spacing: 500 });
  const secondStreets = buildStreets(root.fork("second:streets"), secondGeo, secondRoads, 48, SECOND_PUBLIC_PLACES, SECOND_CANONICAL);
  const secondDrivers = buildDrivers(
    root.fork("second:drivers"),
    now,
    {
      count: 8,
      callSign: (i) => `T${String(i + 1).padStart(2, "0")}`,
      kinds: [["economy", 6], ["comfort", 2]],
      states: { FREE: 5, BUSY: 2, OFFLINE: 1 },
      plateRegions: ["69"],
      permitPrefix: "ТВР",
    },
    secondServices,
    secondStreets,
    secondGeo,
    phones,
  );
  const secondCustomers = buildCustomers(root.fork("second:customers"), now, COMPANIES_SECOND, customerCounter);
  const secondOrders = buildOrders(
    {
      rng: root.fork("second:orders"),
      now,
      geo: secondGeo,
      services: secondServices,
      streets: secondStreets,
      drivers: secondDrivers,
      customers: secondCustomers,
      clients: [],
      phones,
    },
    SECOND_ORDERS,
  );

  const cities: CityPlan[] = [
    {
      key: "main",
      name: "Москва",
      nameEn: "Moscow",
      timezone: "Europe/Moscow",
      currency: "RUB",
      lat: 55.75,
      lon: 37.62,
      box: mainBox,
      regions: mainGeo.regions,
      services: mainServices,
      roads: mainRoads,
      streets: mainStreets,
      drivers: mainDrivers,
      customers: mainCustomers,
      orders: mainOrders,
    },
    {
      key: "second",
      name: "Тверь",
      nameEn: "Tver",
      timezone: "Europe/Moscow",
      currency: "RUB",
      lat: 56.8587,
      lon: 35.9176,
      box: secondBox,
      regions: secondGeo.regions,
      services: secondServices,
      roads: secondRoads,
      streets: secondStreets,
      drivers: secondDrivers,
      customers: secondCustomers,
      orders: secondOrders,
    },
  ];

  const carList = (kinds: ServiceKind[]) =>
    kinds.flatMap((kind) => CARS_BY_KIND[kind].map((car) => ({ brand: car.brand, model: car.model, year: Math.max(2015, car.minYear) })));

  return {
    cities,
    clients,
    blacklist: [{ phone: BLACKLISTED_PHONE, reason: "Ложные вызовы" }],
    carClasses: [
      { id: "1", nameEn: "Economy", nameRu: "Эконом", cars: carList(["economy"]) },
      { id: "2", nameEn: "Comfort", nameRu: "Комфорт", cars: carList(["comfort", "minivan"]) },
      { id: "3", nameEn: "Business", nameRu: "Бизнес", cars: carList(["business"]) },
    ],
    carOptions: [
      { id: "1", name: "Детское кресло", type: "extra", access: "all" },
      { id: "2", name: "Перевозка животных", type: "extra", access: "all" },
      { id: "3", name: "Багаж", type: "extra", access: "all" },
      { id: "4", name: "Некурящий водитель", type: "general", access: "all" },
      { id: "5", name: "Кондиционер", type: "general", access: "all" },
      { id: "6", name: "Оплата картой", type: "general", access: "driver|admin" },
      { id: "7", name: "Брендированный автомобиль", type: "general", access: "driver|admin" },
    ],
  };
}
