// Server code run inside a test's own process (fixtures that seal keys with
// APP_SECRET) reads the configuration once a process (server/config.ts keeps
// it on globalThis), and the files of a lane share one process
// (vitest.config.ts: isolate false). A file that needs its own secret sets it
// around its work and leaves the process as it found it.
const CONFIG_CACHE = Symbol.for("taxi.config");

function forgetConfig(): void {
  Reflect.deleteProperty(globalThis, CONFIG_CACHE);
}

/** Runs `work` with APP_SECRET as a fresh process started with it would read it, then restores the process's own. */
export async function withAppSecret<T>(secret: string, work: () => Promise<T>): Promise<T> {
  const before = process.env.APP_SECRET;
  process.env.APP_SECRET = secret;
  forgetConfig();
  try {
    return await work();
  } finally {
    if (before === undefined) delete process.env.APP_SECRET;
    else process.env.APP_SECRET = before;
    forgetConfig();
  }
}
