// How far V8 lets the heap grow past what a full collection left alive.
// Left to itself V8 picks a factor of up to 4 when the program allocates fast,
// so a server with ~110 MB live grew to 300+ MB of heap under load, most of
// it garbage waiting for a collection (docs/performance.md, "Memory"). A fixed
// factor keeps the resident set near the live data at no measured cost in
// throughput, with no hard cap that would crash a server whose data grows.
// `--heap-growing-percent` is read at every collection, so setting it at
// start-up works; it cannot be passed in NODE_OPTIONS, hence this.
import v8 from "node:v8";

/** Applies HEAP_GROWING_PERCENT (0: V8's own adaptive factor). */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${Math.trunc(percent)}`);
}
