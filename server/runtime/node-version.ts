// The server stops at once on a Node.js older than the supported one (the
// same minimum as package.json's `engines.node`; a unit test keeps the two
// equal). Imported first by server/main.ts, so nothing else runs before it:
// `npm start` checks too (scripts/check-node.mjs), this covers a server
// started another way (`node build/server/main.mjs`, `npm run dev` outside npm).

/** The lowest supported Node.js major version (docs/operations.md, "Runtime"). */
export const MINIMUM_NODE_MAJOR = 24;

const running = process.versions.node;
// ALLOW_UNSUPPORTED_NODE=yes: only for measuring an older runtime side by side
// (`BENCH_SERVER_NODE=/usr/bin/node npm run bench`, docs/performance.md).
const allowed = process.env.ALLOW_UNSUPPORTED_NODE === "yes";
if (Number(running.split(".")[0]) < MINIMUM_NODE_MAJOR && allowed) {
  console.error(`Running on Node.js ${running}, older than the supported ${MINIMUM_NODE_MAJOR} (ALLOW_UNSUPPORTED_NODE=yes): for measurements only.`);
} else if (Number(running.split(".")[0]) < MINIMUM_NODE_MAJOR) {
  console.error(
    `The server needs Node.js ${MINIMUM_NODE_MAJOR} or newer; this is Node.js ${running} (${process.execPath}). ` +
      `Start it with \`npm start\` (npm runs the project's Node.js ${MINIMUM_NODE_MAJOR} from node_modules/.bin).\n` +
      `Серверу нужен Node.js ${MINIMUM_NODE_MAJOR} или новее, а запущен ${running}: запускайте через \`npm start\`.`,
  );
  process.exit(1);
}
