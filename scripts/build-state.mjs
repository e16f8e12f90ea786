// Whether the production build is there and newer than its sources: the Next
// build (BUILD_ID in NEXT_DIST_DIR) and the custom server's JavaScript
// (build/server/main.mjs). `npm start` and `npm run bench` build what is
// missing or stale, so a fresh clone or a changed file never runs old code.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..");

/** The newest modification time (ms) of the files under these paths. */
function newest(paths) {
  let max = 0;
  const walk = (p) => {
    let st;
    try {
      st = statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) if (name !== "node_modules" && !name.startsWith(".next")) walk(path.join(p, name));
    } else if (st.mtimeMs > max) max = st.mtimeMs;
  };
  for (const p of paths) walk(path.join(root, p));
  return max;
}

// shared/ too: the server bundles what it imports from there (the console's tRPC limits, words, wire format).
const SERVER_INPUTS = ["server", "shared", "prisma/schema.prisma", "package.json", "package-lock.json", "tsconfig.json"];
const NEXT_INPUTS = [...SERVER_INPUTS, "app", "public", "next.config.js"];

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

export function buildState(distDir = process.env.NEXT_DIST_DIR || ".next") {
  const nextStamp = mtime(path.join(root, distDir, "BUILD_ID"));
  const serverStamp = mtime(path.join(root, "build", "server", "BUILT_AT"));
  const generated = mtime(path.join(root, "server", "generated", "prisma", "client.ts"));
  return {
    distDir,
    /** prisma generate is needed: no client, or the schema changed since. */
    prismaStale: generated === 0 || mtime(path.join(root, "prisma", "schema.prisma")) > generated,
    nextStale: nextStamp === 0 || newest(NEXT_INPUTS) > nextStamp,
    serverStale: serverStamp === 0 || !existsSync(path.join(root, "build", "server", "main.mjs")) || newest(SERVER_INPUTS) > serverStamp,
  };
}
