// `npm start`: the production server on plain Node, from its JavaScript build
// (build/server/main.mjs, scripts/build-server.mjs) and Next's build. What is
// missing or older than its sources is built first (prisma generate, next
// build, the server), so a fresh clone and a changed checkout both start.
import { requireSupportedNode } from "./check-node.mjs";
import { spawnSync } from "node:child_process";
import { enableCompileCache } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildState, root } from "./build-state.mjs";
import { buildServer } from "./build-server.mjs";

requireSupportedNode("npm start");

function run(args, env = {}) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`failed: node ${args.join(" ")}`);
    process.exit(result.status ?? 1);
  }
}

const state = buildState();
if (state.prismaStale) run([path.join(root, "node_modules", "prisma", "build", "index.js"), "generate"]);
if (state.nextStale) {
  console.log(`Building the application (${state.distDir} is missing or older than the sources)...`);
  run([path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], { NODE_ENV: "production" });
}
if (state.serverStale || state.prismaStale) {
  const { ms } = await buildServer();
  console.log(`Built the server (build/server/main.mjs) in ${ms} ms`);
}
process.setSourceMapsEnabled(true);
process.env.NODE_ENV ??= "production";
// V8's compiled code of the server and its packages kept on disk (the
// system's temporary folder, or NODE_COMPILE_CACHE): a restart skips
// compiling them again, about a third of a second of CPU before the server
// can serve (docs/operations.md). Where the folder cannot be written it is
// simply not used.
enableCompileCache();
await import(pathToFileURL(path.join(root, "build", "server", "main.mjs")).href);
