// The one reading of a request's path (server/http/request-target.ts), the
// linear trims, and LIKE escaping: small pure functions behind the security
// suite's walks (tests/security/path-spellings.test.ts runs them for real).
import { describe, expect, it } from "vitest";
import { escapeLike } from "@/server/db/like";
import { encodePath, requestTarget, resolveSegments, trimSlashes, underPrefix } from "@/server/http/request-target";
import { trimChar, trimEndChar } from "@/server/text/trim";

describe("requestTarget", () => {
  it.each([
    ["/x/../participant/drivers", "/participant/drivers"],
    ["/x/%2e%2e/participant/drivers", "/participant/drivers"],
    ["/x%2f..%2fparticipant/drivers", "/x%2F..%2Fparticipant/drivers"],
    ["/participant%2fdrivers", "/participant%2Fdrivers"],
    ["/x/%252e%252e/participant", "/x/%252e%252e/participant"],
    ["/x\\..\\participant/drivers", "/participant/drivers"],
    ["//participant//drivers", "/participant/drivers"],
    ["/%70articipant/drivers", "/participant/drivers"],
    ["/a/b/../../../../participant", "/participant"],
    ["/participant/drivers/", "/participant/drivers/"],
    ["/participant/drivers/.", "/participant/drivers/"],
    ["/", "/"],
    ["http://evil.example/participant/drivers", "/participant/drivers"],
  ])("%s is %s", (raw, path) => {
    expect(requestTarget(raw)?.path).toBe(path);
  });

  it("keeps the query as sent and refuses what is not a target", () => {
    expect(requestTarget("/api/x?a=%2e%2e/b")).toEqual({ path: "/api/x", search: "?a=%2e%2e/b" });
    for (const bad of ["/api/%ff", "/x/%00/y", "/x%0a", "*", "evil.example/x", "javascript:alert(1)"]) expect(requestTarget(bad), bad).toBeUndefined();
  });

  it("encodes a canonical path back so that it reads the same", () => {
    for (const raw of ["/a%20b/c%25d/e%3Ff%23g", "/_next/static/chunks/[root]__x.js", "/%D1%83%D0%BB%D0%B8%D1%86%D0%B0/1", "/x%2Fy"]) {
      const once = requestTarget(raw)!.path;
      expect(requestTarget(encodePath(once))?.path, raw).toBe(once);
    }
    expect(encodePath(requestTarget("/a%20b/%D1%83")!.path)).toBe("/a%20b/%D1%83");
  });

  it("compares prefixes without regard to case, on segment boundaries", () => {
    expect(underPrefix("/Participant/x", "/participant")).toBe(true);
    expect(underPrefix("/participant", "/participant")).toBe(true);
    expect(underPrefix("/participants", "/participant")).toBe(false);
    expect(resolveSegments("/a/./b/../c")).toBe("/a/c");
  });
});

describe("linear trims", () => {
  it("trims runs at either end", () => {
    expect(trimSlashes("///a/b///")).toBe("a/b");
    expect(trimChar("--a-b--", "-")).toBe("a-b");
    expect(trimEndChar("http://x///", "/")).toBe("http://x");
  });

  it("takes linear time on a long run followed by something else", () => {
    const long = `${"/".repeat(2_000_000)}x`;
    const started = performance.now();
    trimSlashes(long);
    trimEndChar(long, "/");
    // A quadratic trim of two million characters would take hours, not milliseconds.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe("escapeLike", () => {
  it("escapes the wildcards and the escape character", () => {
    expect(escapeLike("100%_a\\b")).toBe("100\\%\\_a\\\\b");
    expect(escapeLike("plain")).toBe("plain");
  });
});
