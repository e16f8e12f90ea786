// The order board's rows on the wire: one superjson custom type for a page of
// rows, serialised as compact tuples in one pass. superjson otherwise walks
// every field of every row (100 rows: ~3,000 values and 300 dates), which
// was the largest single cost of a board load (docs/performance.md). The
// console gets the same objects back (dates as Date). Browser-safe: the
// server (trpc/init.ts), the console (app/components/providers.tsx) and the
// tests' tRPC client import this module for its registration.
import superjson from "superjson";

/** Where an order came from: Prisma's enum OrderSource (board-data.ts assigns that enum to it, so the compiler keeps them in step). */
export type OrderSource = "API" | "CONSOLE" | "EXCHANGE" | "SIMULATOR";

/** A row of the board, in the shape the console renders (dates as Date, relations as objects). */
export interface BoardRow {
  id: number;
  uuid: string;
  state: string;
  statusCode: number;
  version: number;
  source: OrderSource;
  phone: string;
  clientName: string;
  street: string;
  house: string;
  dst: string;
  dstStreet: string;
  dstHouse: string;
  comment: string;
  amount: number | null;
  preOrderTime: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** When the order entered its present state (its creation when it never moved). */
  stateAt: Date;
  service: { id: number; name: string; nameEn: string };
  region: { id: number; name: string; nameEn: string } | null;
  driver: { id: number; callSign: string } | null;
}


/** A page of board rows (the board, the moderation queue). */
export class BoardRowPage {
  constructor(
    readonly items: BoardRow[],
    readonly nextCursor: number | null = null,
    readonly total: number = items.length,
  ) {}
}

type Tuple = [
  number, string, string, number, number, string, string, string, string, string, string, string, string, string,
  number | null, number | null, number, number,
  number, string, string, number | null, string, string, number | null, string, number,
];
type Wire = { v: 1; rows: Tuple[]; nextCursor: number | null; total: number };

function toTuple(r: BoardRow): Tuple {
  return [
    r.id, r.uuid, r.state, r.statusCode, r.version, r.source, r.phone, r.clientName, r.street, r.house, r.dst, r.dstStreet, r.dstHouse, r.comment,
    r.amount, r.preOrderTime ? r.preOrderTime.getTime() : null, r.createdAt.getTime(), r.updatedAt.getTime(),
    r.service.id, r.service.name, r.service.nameEn, r.region?.id ?? null, r.region?.name ?? "", r.region?.nameEn ?? "", r.driver?.id ?? null, r.driver?.callSign ?? "",
    r.stateAt.getTime(),
  ];
}

function fromTuple(t: Tuple): BoardRow {
  return {
    id: t[0], uuid: t[1], state: t[2], statusCode: t[3], version: t[4], source: t[5] as BoardRow["source"], phone: t[6], clientName: t[7],
    street: t[8], house: t[9], dst: t[10], dstStreet: t[11], dstHouse: t[12], comment: t[13], amount: t[14],
    preOrderTime: t[15] === null ? null : new Date(t[15]), createdAt: new Date(t[16]), updatedAt: new Date(t[17]),
    service: { id: t[18], name: t[19], nameEn: t[20] },
    region: t[21] === null ? null : { id: t[21], name: t[22], nameEn: t[23] },
    driver: t[24] === null ? null : { id: t[24], callSign: t[25] },
    stateAt: new Date(t[26]),
  };
}

superjson.registerCustom<BoardRowPage, Wire>(
  {
    isApplicable: (v): v is BoardRowPage => v instanceof BoardRowPage,
    serialize: (page) => ({ v: 1, rows: page.items.map(toTuple), nextCursor: page.nextCursor, total: page.total }),
    deserialize: (wire) => new BoardRowPage(wire.rows.map(fromTuple), wire.nextCursor, wire.total),
  },
  "taxi.boardRowPage",
);

export { superjson };
