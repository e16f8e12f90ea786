// Summarises a V8 heap snapshot (.heapsnapshot): self size by constructor
// (objects), by kind for the rest (strings, compiled code, arrays, closures),
// so a report can say what the server holds.
//   tsx scripts/bench/heap.ts <file.heapsnapshot>
import { readFileSync } from "node:fs";

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

export interface HeapSummary {
  totalMb: number;
  top: Array<{ what: string; mb: number; count: number }>;
}

export function summarizeHeap(file: string, top = 25): HeapSummary {
  const snap = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const iType = fields.indexOf("type");
  const iName = fields.indexOf("name");
  const iSize = fields.indexOf("self_size");
  const by = new Map<string, { bytes: number; count: number }>();
  let total = 0;
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + iType]!] ?? "?";
    const size = snap.nodes[i + iSize]!;
    total += size;
    let what: string;
    if (type === "object" || type === "closure") what = `${type === "closure" ? "closure " : ""}${snap.strings[snap.nodes[i + iName]!] ?? "?"}`;
    else if (type === "string" || type === "concatenated string" || type === "sliced string") what = "(strings)";
    else what = `(${type})`;
    const e = by.get(what) ?? { bytes: 0, count: 0 };
    e.bytes += size;
    e.count++;
    by.set(what, e);
  }
  return {
    totalMb: total / 1048576,
    top: [...by.entries()].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top).map(([what, e]) => ({ what: what.slice(0, 80), mb: e.bytes / 1048576, count: e.count })),
  };
}

if (process.argv[1] && /heap\.ts$/.test(process.argv[1])) {
  const file = process.argv[2];
  if (!file) throw new Error("usage: heap.ts <file.heapsnapshot>");
  const s = summarizeHeap(file, 40);
  console.log(`heap ${s.totalMb.toFixed(1)} MB`);
  for (const t of s.top) console.log(`${t.mb.toFixed(1).padStart(7)} MB ${String(t.count).padStart(8)}  ${t.what}`);
}
