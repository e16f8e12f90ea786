// Streams the elements of an OpenStreetMap file, .osm.pbf (the blocks read
// within the format's limits by pbf-blocks.ts, each parsed by
// osm-pbf-parser-node) or .osm XML (saxes), as one shape: nodes with
// coordinates, ways with their node references, each with its tags.
// Relations are not needed here.
import { createReadStream } from "node:fs";
import { OSMTransform, parse } from "osm-pbf-parser-node";
import { SaxesParser } from "saxes";
import { OsmFileError, readPbfBlocks } from "./pbf-blocks";

export type Tags = Readonly<Record<string, string>>;

export interface OsmNode {
  type: "node";
  id: number;
  lat: number;
  lon: number;
  tags: Tags;
}

export interface OsmWay {
  type: "way";
  id: number;
  refs: number[];
  tags: Tags;
}

export type OsmElement = OsmNode | OsmWay;

export function isPbf(file: string): boolean {
  return /\.pbf$/i.test(file);
}

// The parser's items are untyped objects, checked here by hand rather than
// with zod: a city's extract has millions of them, and a schema per item
// would cost seconds for nothing a typeof cannot tell.
function tagsOf(value: unknown): Tags {
  if (typeof value !== "object" || value === null) return {};
  const tags: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === "string") tags[k] = v;
  return tags;
}

function fromPbf(item: unknown, what: { nodes: boolean; ways: boolean }): OsmElement | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const e = item as Record<string, unknown>;
  if (typeof e.id !== "number") return undefined;
  if (e.type === "node" && what.nodes && typeof e.lat === "number" && typeof e.lon === "number") {
    return { type: "node", id: e.id, lat: e.lat, lon: e.lon, tags: tagsOf(e.tags) };
  }
  if (e.type === "way" && what.ways && Array.isArray(e.refs) && e.refs.every((r) => typeof r === "number")) {
    return { type: "way", id: e.id, refs: e.refs, tags: tagsOf(e.tags) };
  }
  return undefined;
}

async function* readPbf(file: string, what: { nodes: boolean; ways: boolean }): AsyncGenerator<OsmElement> {
  // The parser's options as its own stream holds them (parse reads them from there).
  const options = new OSMTransform({ withTags: true, withInfo: false });
  for await (const block of readPbfBlocks(file)) {
    if (block.type !== "OSMData") continue;
    let items: object[];
    try {
      items = parse(block.data, options);
    } catch (error) {
      // The parser trusts the block's structure and fails with a TypeError on one that lies.
      throw new OsmFileError(file, block.offset, `a block that does not parse (${(error as Error).message})`);
    }
    for (const item of items) {
      const element = fromPbf(item, what);
      if (element) yield element;
    }
  }
}

async function* readXml(file: string, what: { nodes: boolean; ways: boolean }): AsyncGenerator<OsmElement> {
  const parser = new SaxesParser();
  const ready: OsmElement[] = [];
  let current: { type: "node"; id: number; lat: number; lon: number; tags: Record<string, string> } | { type: "way"; id: number; refs: number[]; tags: Record<string, string> } | undefined;
  parser.on("opentag", (tag) => {
    const a = tag.attributes as Record<string, string>;
    switch (tag.name) {
      case "node":
        current = { type: "node", id: Number(a.id), lat: Number(a.lat), lon: Number(a.lon), tags: {} };
        break;
      case "way":
        current = { type: "way", id: Number(a.id), refs: [], tags: {} };
        break;
      case "nd":
        if (current?.type === "way" && a.ref !== undefined) current.refs.push(Number(a.ref));
        break;
      case "tag":
        if (current && a.k !== undefined && a.v !== undefined) current.tags[a.k] = a.v;
        break;
      default:
        if (tag.name === "relation") current = undefined;
    }
  });
  parser.on("closetag", (tag) => {
    if ((tag.name === "node" || tag.name === "way") && current) {
      if (current.type === "node" ? what.nodes : what.ways) ready.push(current);
      current = undefined;
    }
  });
  for await (const chunk of createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 20 })) {
    parser.write(chunk as string);
    yield* ready.splice(0);
  }
  parser.close();
  yield* ready.splice(0);
}

/** The file's nodes and/or ways, in file order (nodes come before ways in both formats). */
export function readOsm(file: string, what: { nodes: boolean; ways: boolean }): AsyncGenerator<OsmElement> {
  return isPbf(file) ? readPbf(file, what) : readXml(file, what);
}
