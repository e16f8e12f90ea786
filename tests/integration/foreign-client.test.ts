// A client in another language (Python, standard library only) drives the
// whole flow against the started server, as real clients do.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiKey, baseUrl } from "../support/api";

const run = promisify(execFile);

describe("a Python client written against the original product", () => {
  it("runs the whole flow without an error", async () => {
    const script = path.resolve(import.meta.dirname, "..", "clients", "dispatch_client.py");
    const { stdout } = await run("python3", [script, baseUrl(), apiKey()], { timeout: 60_000 });
    expect(stdout).toMatch(/^OK [0-9a-f-]{36}/);
  });
});
