// Amounts travel as roubles (floats) in the dispatch API and live as integer
// kopecks in the database; conversion happens only at the edges.
export function roublesToKopecks(roubles: number): number {
  return Math.round(roubles * 100);
}

export function kopecksToRoubles(kopecks: number | bigint): number {
  return Number(kopecks) / 100;
}

/** Largest single payment accepted: 10 million roubles. */
export const MAX_PAYMENT_KOPECKS = 1_000_000_000;
