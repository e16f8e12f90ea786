// A binary min-heap of (key, node) pairs on typed arrays, for the graph
// searches. Entries are never decreased: a better key pushes the node again
// and the search skips stale entries when they come out (lazy deletion),
// which is simpler and, on road graphs, as fast as a decrease-key heap.
export class NodeHeap {
  private keys: Float64Array;
  private nodes: Int32Array;
  size = 0;

  constructor(capacity = 1024) {
    this.keys = new Float64Array(capacity);
    this.nodes = new Int32Array(capacity);
  }

  clear(): void {
    this.size = 0;
  }

  push(key: number, node: number): void {
    if (this.size === this.keys.length) this.grow();
    let i = this.size++;
    const keys = this.keys;
    const nodes = this.nodes;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pk = keys[parent]!;
      if (pk <= key) break;
      keys[i] = pk;
      nodes[i] = nodes[parent]!;
      i = parent;
    }
    keys[i] = key;
    nodes[i] = node;
  }

  /** The smallest key; call only when size > 0. */
  peekKey(): number {
    return this.keys[0]!;
  }

  /** Removes the entry with the smallest key and returns its node; call only when size > 0. */
  pop(): number {
    const keys = this.keys;
    const nodes = this.nodes;
    const top = nodes[0]!;
    const n = --this.size;
    if (n > 0) {
      const key = keys[n]!;
      const node = nodes[n]!;
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && keys[child + 1]! < keys[child]!) child++;
        if (keys[child]! >= key) break;
        keys[i] = keys[child]!;
        nodes[i] = nodes[child]!;
        i = child;
      }
      keys[i] = key;
      nodes[i] = node;
    }
    return top;
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    const nodes = new Int32Array(this.nodes.length * 2);
    keys.set(this.keys);
    nodes.set(this.nodes);
    this.keys = keys;
    this.nodes = nodes;
  }
}
