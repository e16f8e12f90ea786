// The longest time between two turns of a 1 ms timer while some work runs:
// what a request arriving then would wait at most (the fleet round's and the
// hint plan's benchmarks).
export function watchLoopStretch(): { stop: () => number } {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const t = performance.now();
    longest = Math.max(longest, t - last);
    last = t;
  }, 1);
  return {
    stop: () => {
      clearInterval(timer);
      return longest;
    },
  };
}
