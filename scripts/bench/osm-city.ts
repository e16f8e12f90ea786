// Writes a synthetic OpenStreetMap extract of roughly the make-up of a city
// of about a million people, to measure `npm run import:osm` where no real
// extract can be downloaded (docs/roads.md, "Your own city from OpenStreetMap"):
//   roads: a 200 x 200 grid of junctions, each block drawn through 3 shape
//          nodes, one way per 10 blocks (about 80,000 segments);
//   buildings: 250,000 outlines of 5 nodes, 40% with an address;
//   other ways (land use, paths, fences): 100,000 of 10 nodes, no tags the import uses.
//   npx tsx scripts/bench/osm-city.ts /tmp/city.osm.pbf
import { writeOsmPbf, type OsmModel } from "../../tests/support/osm-file";

const file = process.argv[2];
if (!file) {
  console.error("usage: npx tsx scripts/bench/osm-city.ts <out.osm.pbf>");
  process.exit(2);
}
const model: OsmModel = { nodes: [], ways: [] };
let nodeId = 1;
let wayId = 1;
const origin = { lat: 57.5, lon: 39.6 };
const step = 0.0025;
const node = (lat: number, lon: number, tags?: Record<string, string>) => {
  model.nodes.push({ id: nodeId, lat, lon, ...(tags ? { tags } : {}) });
  return nodeId++;
};
const n = 200;
const junction: number[][] = [];
for (let i = 0; i < n; i++) junction.push(Array.from({ length: n }, (_, j) => node(origin.lat + i * step, origin.lon + j * step)));
const line = (refsOf: (k: number) => [number, number, number, number], name: string, highway: string) => {
  // Ways of 10 blocks; each block from junction to junction through 3 shape nodes.
  for (let start = 0; start < n - 1; start += 10) {
    const refs: number[] = [];
    for (let k = start; k < Math.min(start + 10, n - 1); k++) {
      const [aLat, aLon, bLat, bLon] = refsOf(k);
      if (refs.length === 0) refs.push(refAt(aLat, aLon));
      for (let q = 1; q <= 3; q++) refs.push(node(aLat + ((bLat - aLat) * q) / 4 + 0.00002, aLon + ((bLon - aLon) * q) / 4));
      refs.push(refAt(bLat, bLon));
    }
    model.ways.push({ id: wayId++, refs, tags: { highway, name } });
  }
};
const index = new Map<string, number>();
junction.forEach((row, i) => row.forEach((id, j) => index.set(`${i}:${j}`, id)));
const coords = (i: number, j: number): [number, number] => [origin.lat + i * step, origin.lon + j * step];
const refAt = (lat: number, lon: number) => index.get(`${Math.round((lat - origin.lat) / step)}:${Math.round((lon - origin.lon) / step)}`)!;
for (let i = 0; i < n; i++) line((k) => [...coords(i, k), ...coords(i, k + 1)], `улица ${i + 1}`, i % 10 === 0 ? "primary" : "residential");
for (let j = 0; j < n; j++) line((k) => [...coords(k, j), ...coords(k + 1, j)], `проспект ${j + 1}`, j % 10 === 0 ? "secondary" : "residential");
for (let b = 0; b < 250_000; b++) {
  const i = b % (n - 1);
  const j = Math.floor(b / (n - 1)) % (n - 1);
  const lat = origin.lat + i * step + 0.0003 + (b % 7) * 0.0002;
  const lon = origin.lon + j * step + 0.0003 + (b % 5) * 0.0003;
  const d = 0.00008;
  const ring = [node(lat, lon), node(lat + d, lon), node(lat + d, lon + d), node(lat, lon + d)];
  const address: Record<string, string> = b % 5 < 2 ? { "addr:street": `улица ${i + 1}`, "addr:housenumber": String(Math.floor(b / (n - 1)) + 1) } : {};
  model.ways.push({ id: wayId++, refs: [...ring, ring[0]!], tags: { building: "yes", ...address } });
}
for (let w = 0; w < 100_000; w++) {
  const lat = origin.lat + (w % 400) * 0.0012;
  const lon = origin.lon + Math.floor(w / 400) * 0.002;
  model.ways.push({ id: wayId++, refs: Array.from({ length: 10 }, (_, k) => node(lat + k * 0.0001, lon + (k % 2) * 0.0001)), tags: { landuse: "grass" } });
}
writeOsmPbf(file, model);
console.log(`${file}: ${model.nodes.length} nodes, ${model.ways.length} ways`);
