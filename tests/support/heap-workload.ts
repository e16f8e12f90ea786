// A workload for tests/unit/heap-growth.test.ts, run in a process of its own:
// ~100 MB kept alive, and short-lived objects that survive long enough to be
// promoted, as a server under load makes. Prints the V8 heap's peak size in MB.
//   node --import tsx tests/support/heap-workload.ts <HEAP_GROWING_PERCENT>
import { applyHeapGrowth } from "../../server/runtime/heap";

applyHeapGrowth(Number(process.argv[2] ?? 0));
const kept: object[] = [];
for (let i = 0; i < 700_000; i++) kept.push({ a: i, b: `x${i}` });
const recent = new Array<object>(250_000);
let peak = 0;
for (let r = 0; r < 10_000_000; r++) {
  recent[r % recent.length] = { r, s: `y${r}` };
  if (r % 20_000 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
}
process.stdout.write(`${Math.round(peak / 1048576)} ${kept.length}\n`);
