import { describe, expect, it } from "vitest";
import { apiGet, baseUrl } from "../support/api";
import { changeset, version } from "@/server/dispatch-api/operations/meta";

describe("version and changeset", () => {
  it("reports the version without a key, and the changeset agrees", async () => {
    const v = await apiGet("version", {}, false);
    expect(v.httpStatus).toBe(200);
    expect(v.status).toBe("DONE");
    const { version: reported } = version.output.parse(v.response);
    const c = await apiGet("changeset", {}, false);
    expect(c.status).toBe("DONE");
    const list = changeset.output.parse({ changeset: c.changeset }).changeset;
    expect(list.at(-1)?.[0]).toBe(reported);
    const versions = list.map(([v]) => v);
    expect(versions).toContain("1.26.0");
    expect(versions).toContain("1.50.1");
  });

  it("does not care about a trailing slash", async () => {
    const res = await fetch(`${baseUrl()}/api/version/`);
    expect(((await res.json()) as { status: string }).status).toBe("DONE");
  });

  it("answers 404 only for a path that does not exist, in the error form", async () => {
    const res = await fetch(`${baseUrl()}/api/no/such/operation`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { status: string; error: { code: string } };
    expect(body.status).toBe("ERROR");
    expect(body.error.code).toBe("NOT_FOUND");
  });
});
