// Small OpenStreetMap files made by the tests: a grid town (named streets
// crossing at junctions, a one-way street, a footway and a private road a
// taxi may not use, houses as building outlines and as address points, a
// named place), written as .osm XML or as .osm.pbf (a minimal protobuf
// encoder: raw nodes and ways in zlib blobs, which is what the format allows
// and what readers accept).
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

export interface OsmModel {
  nodes: Array<{ id: number; lat: number; lon: number; tags?: Record<string, string> }>;
  ways: Array<{ id: number; refs: number[]; tags: Record<string, string> }>;
}

export interface TownOptions {
  rows: number;
  cols: number;
  /** Degrees between grid lines. */
  step?: number;
  origin?: { lat: number; lon: number };
  /** One way per block (many ways) instead of one way per line. */
  wayPerBlock?: boolean;
  /** Renames the first street (to test an update). */
  firstStreetName?: string;
}

export const rowName = (i: number) => `улица Строителей ${i + 1}`;
export const colName = (j: number) => `проспект Мира ${j + 1}`;

/** The grid town; node ids are 1 + i * cols + j, so tests can find junctions. */
export function gridTown(options: TownOptions): OsmModel {
  const { rows, cols } = options;
  const step = options.step ?? 0.002;
  const origin = options.origin ?? { lat: 57.6, lon: 39.8 };
  const node = (i: number, j: number) => 1 + i * cols + j;
  const nodes: OsmModel["nodes"] = [];
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) nodes.push({ id: node(i, j), lat: origin.lat + i * step, lon: origin.lon + j * step });
  const ways: OsmModel["ways"] = [];
  let wayId = 1000;
  const line = (refs: number[], tags: Record<string, string>) => {
    if (options.wayPerBlock) for (let k = 0; k + 1 < refs.length; k++) ways.push({ id: wayId++, refs: [refs[k]!, refs[k + 1]!], tags });
    else ways.push({ id: wayId++, refs, tags });
  };
  for (let i = 0; i < rows; i++) {
    const name = i === 0 && options.firstStreetName ? options.firstStreetName : rowName(i);
    // Row 1 is one-way eastwards.
    line(Array.from({ length: cols }, (_, j) => node(i, j)), { highway: i % 4 === 0 ? "secondary" : "residential", name, ...(i === 1 ? { oneway: "yes" } : {}) });
  }
  for (let j = 0; j < cols; j++) line(Array.from({ length: rows }, (_, i) => node(i, j)), { highway: j % 4 === 0 ? "primary" : "residential", name: colName(j) });

  // Not for cars: a footway and a private road across the first block, through nodes of their own.
  const extra = rows * cols + 1;
  nodes.push({ id: extra, lat: origin.lat + step / 2, lon: origin.lon + step / 2 }, { id: extra + 1, lat: origin.lat + step / 2, lon: origin.lon + step * 1.5 });
  ways.push({ id: wayId++, refs: [node(0, 0), extra, node(1, 1)], tags: { highway: "footway", name: "Тропа" } });
  ways.push({ id: wayId++, refs: [node(0, 1), extra + 1, node(1, 2)], tags: { highway: "service", access: "private" } });

  // Houses: a building outline on the first street, address points on the first avenue.
  const outline = [extra + 2, extra + 3, extra + 4, extra + 5];
  const b = { lat: origin.lat - step / 8, lon: origin.lon + step / 2 };
  nodes.push(
    { id: outline[0]!, lat: b.lat, lon: b.lon },
    { id: outline[1]!, lat: b.lat, lon: b.lon + step / 10 },
    { id: outline[2]!, lat: b.lat - step / 10, lon: b.lon + step / 10 },
    { id: outline[3]!, lat: b.lat - step / 10, lon: b.lon },
  );
  ways.push({ id: wayId++, refs: [...outline, outline[0]!], tags: { building: "yes", "addr:street": options.firstStreetName ?? rowName(0), "addr:housenumber": "1" } });
  let id = extra + 10;
  for (let i = 0; i < rows; i++) {
    nodes.push({ id: id++, lat: origin.lat + i * step, lon: origin.lon - step / 8, tags: { "addr:street": colName(0), "addr:housenumber": `${2 * i + 1}` } });
  }
  nodes.push({ id: id++, lat: origin.lat + step, lon: origin.lon + step * 1.5, tags: { railway: "station", name: "Вокзал Тестовый" } });
  return { nodes, ways };
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

export function writeOsmXml(file: string, model: OsmModel): void {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>', '<osm version="0.6" generator="taxi-tests">'];
  const tags = (t: Record<string, string> | undefined) => Object.entries(t ?? {}).map(([k, v]) => `<tag k="${esc(k)}" v="${esc(v)}"/>`).join("");
  for (const n of model.nodes) out.push(`<node id="${n.id}" lat="${n.lat.toFixed(7)}" lon="${n.lon.toFixed(7)}">${tags(n.tags)}</node>`);
  for (const w of model.ways) out.push(`<way id="${w.id}">${w.refs.map((r) => `<nd ref="${r}"/>`).join("")}${tags(w.tags)}</way>`);
  out.push("</osm>");
  writeFileSync(file, out.join("\n"));
}

// ------------------------------------------------------------------ protobuf

class Proto {
  private readonly bytes: number[] = [];

  private varint(n: number): void {
    let v = n;
    while (v >= 0x80) {
      this.bytes.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    this.bytes.push(v);
  }

  uint(field: number, n: number): this {
    this.varint(field * 8);
    this.varint(n);
    return this;
  }

  sint(field: number, n: number): this {
    return this.uint(field, n >= 0 ? 2 * n : -2 * n - 1);
  }

  bytesField(field: number, data: Uint8Array): this {
    this.varint(field * 8 + 2);
    this.varint(data.length);
    for (const b of data) this.bytes.push(b);
    return this;
  }

  string(field: number, s: string): this {
    return this.bytesField(field, Buffer.from(s, "utf8"));
  }

  message(field: number, m: Proto): this {
    return this.bytesField(field, m.finish());
  }

  packed(field: number, values: readonly number[], signed = false): this {
    const inner = new Proto();
    for (const v of values) inner.varint(signed ? (v >= 0 ? 2 * v : -2 * v - 1) : v);
    return this.bytesField(field, inner.finish());
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

function blob(type: "OSMHeader" | "OSMData", block: Uint8Array): Buffer {
  const data = new Proto().uint(2, block.length).bytesField(3, deflateSync(block)).finish();
  const header = new Proto().string(1, type).uint(3, data.length).finish();
  const size = Buffer.alloc(4);
  size.writeUInt32BE(header.length);
  return Buffer.concat([size, header, data]);
}

/** A primitive block of plain nodes or of ways, with its string table. */
function primitiveBlock(group: (strings: (s: string) => number) => Proto): Uint8Array {
  const table = new Map<string, number>([["", 0]]);
  const index = (s: string) => {
    let i = table.get(s);
    if (i === undefined) table.set(s, (i = table.size));
    return i;
  };
  const g = group(index);
  const strings = new Proto();
  for (const s of table.keys()) strings.string(1, s);
  return new Proto().message(1, strings).message(2, g).finish();
}

export function writeOsmPbf(file: string, model: OsmModel): void {
  const parts: Buffer[] = [blob("OSMHeader", new Proto().string(4, "OsmSchema-V0.6").finish())];
  const perBlock = 8_000;
  for (let k = 0; k < model.nodes.length; k += perBlock) {
    parts.push(
      blob(
        "OSMData",
        primitiveBlock((index) => {
          const group = new Proto();
          for (const n of model.nodes.slice(k, k + perBlock)) {
            const entries = Object.entries(n.tags ?? {});
            const m = new Proto().sint(1, n.id);
            if (entries.length) m.packed(2, entries.map(([key]) => index(key))).packed(3, entries.map(([, v]) => index(v)));
            m.sint(8, Math.round(n.lat * 1e7)).sint(9, Math.round(n.lon * 1e7));
            group.message(1, m);
          }
          return group;
        }),
      ),
    );
  }
  for (let k = 0; k < model.ways.length; k += perBlock) {
    parts.push(
      blob(
        "OSMData",
        primitiveBlock((index) => {
          const group = new Proto();
          for (const w of model.ways.slice(k, k + perBlock)) {
            const entries = Object.entries(w.tags);
            const deltas = w.refs.map((r, i) => r - (i === 0 ? 0 : w.refs[i - 1]!));
            group.message(3, new Proto().uint(1, w.id).packed(2, entries.map(([key]) => index(key))).packed(3, entries.map(([, v]) => index(v))).packed(8, deltas, true));
          }
          return group;
        }),
      ),
    );
  }
  writeFileSync(file, Buffer.concat(parts));
}
