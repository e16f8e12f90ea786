// The benchmark builds what it runs when it is missing or older than its
// sources (scripts/build-state.mjs): Next's build in its own NEXT_DIST_DIR,
// and the custom server's JavaScript.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { existsSync } from "node:fs";
// @ts-expect-error: plain JavaScript modules of the build (no declarations)
import { buildState, root } from "../build-state.mjs";
// @ts-expect-error: plain JavaScript modules of the build (no declarations)
import { buildServer } from "../build-server.mjs";

interface State { prismaStale: boolean; nextStale: boolean; serverStale: boolean }

/**
 * `nextOnlyIfMissing`: the fleet (fleet.ts) serves nothing through Next, so
 * a Next build older than the server's sources will do there (the custom
 * server is still rebuilt when stale): a Next build takes minutes here.
 */
export async function ensureBuilt(distDir: string, log: (m: string) => void, options: { nextOnlyIfMissing?: boolean } = {}): Promise<void> {
  const state = (buildState as (d: string) => State)(distDir);
  if (options.nextOnlyIfMissing && state.nextStale && existsSync(path.join(root as string, distDir, "BUILD_ID"))) {
    log(`the Next build in ${distDir} is older than the sources; the fleet does not use it, so it is not rebuilt`);
    state.nextStale = false;
  }
  const run = (args: string[], env: Record<string, string> = {}) => {
    const r = spawnSync(process.execPath, args, { cwd: root as string, stdio: "inherit", env: { ...process.env, ...env } });
    if (r.status !== 0) throw new Error(`failed: node ${args.join(" ")}`);
  };
  if (state.prismaStale) run([path.join(root as string, "node_modules", "prisma", "build", "index.js"), "generate"]);
  if (state.nextStale) {
    log(`building Next into ${distDir} (missing or older than the sources)`);
    const t0 = Date.now();
    run([path.join(root as string, "node_modules", "next", "dist", "bin", "next"), "build"], { NODE_ENV: "production", NEXT_DIST_DIR: distDir });
    log(`  built in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  if (state.serverStale || state.prismaStale) {
    const { ms } = await (buildServer as () => Promise<{ ms: number }>)();
    log(`built the server (build/server/main.mjs) in ${ms} ms`);
  }
}
