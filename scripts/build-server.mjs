// Builds the custom server (server/main.ts and everything it imports) into
// one JavaScript file, build/server/main.mjs, so that production starts with
// plain `node` and compiles no TypeScript at run time (docs/performance.md).
// Packages stay external (node_modules, resolved by Node as before); our
// code, the generated Prisma client included, is bundled. Part of
// `npm run build`; `npm start` (scripts/start.mjs) runs it when stale.
import { build } from "esbuild";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const outFile = path.join(root, "build", "server", "main.mjs");

export async function buildServer() {
  const started = Date.now();
  mkdirSync(path.dirname(outFile), { recursive: true });
  await build({
    entryPoints: [path.join(root, "server", "main.ts")],
    outfile: outFile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: true,
    // Stack traces point at the TypeScript sources (node --enable-source-maps).
    sourcesContent: false,
    tsconfig: path.join(root, "tsconfig.json"),
    logLevel: "warning",
    // Bundled ESM has no require: the few CommonJS-style requires of our code get one.
    banner: { js: 'import { createRequire as __taxiCreateRequire } from "node:module"; const require = __taxiCreateRequire(import.meta.url);' },
  });
  writeFileSync(path.join(root, "build", "server", "BUILT_AT"), new Date().toISOString());
  return { file: outFile, ms: Date.now() - started };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const { file, ms } = await buildServer();
  console.log(`server built: ${path.relative(root, file)} in ${ms} ms`);
}
