// Stops with a clear message when this Node.js is older than package.json's
// `engines.node` (">=24"): the project runs on the Node 24 that `npm install`
// puts in node_modules/.bin (docs/operations.md, "Runtime"), and a system
// Node 20 reached some other way (a bare `node scripts/start.mjs`, an IDE's
// runner) must not start it. Plain JavaScript on purpose: it has to run on
// the old Node to say so. `node scripts/check-node.mjs <what>` from a shell.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The lowest supported major version: the N of package.json's `engines.node` ">=N". */
export function minimumNodeMajor() {
  const range = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).engines?.node ?? "";
  const match = /^>=\s*(\d+)/.exec(range);
  if (!match) throw new Error(`package.json engines.node is "${range}"; expected ">=N"`);
  return Number(match[1]);
}

/** Exits with a message naming the fix when the running Node is too old for `what`. */
export function requireSupportedNode(what) {
  const minimum = minimumNodeMajor();
  const major = Number(process.versions.node.split(".")[0]);
  if (major >= minimum) return;
  console.error(
    [
      `${what} needs Node.js ${minimum} or newer; this is Node.js ${process.versions.node} (${process.execPath}).`,
      `Run it through npm (npm start, npm test, npm run ...): npm puts the project's Node.js ${minimum} from node_modules/.bin first on the PATH.`,
      `If node_modules/.bin/node is missing, run \`npm ci\` (on a platform without the node-linux-* package, install Node.js ${minimum} yourself).`,
      `Node.js ${process.versions.node} не поддерживается: нужен Node.js ${minimum} или новее; запускайте через npm (npm start, npm test).`,
    ].join("\n"),
  );
  process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) requireSupportedNode(process.argv[2] ?? "This project");
