// The contract an integrator reads: the served document is the one built from
// the operations (described, linted in tests/unit/openapi-lint.test.ts), and
// every body content type it lists is read the same way; a body that does not
// parse is BAD_REQUEST, never read as empty. Before the fix a broken JSON body
// was read as no parameters at all, so its fields fell back to "not given".
import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { apiKey, baseUrl } from "../support/api";

async function post(path: string, contentType: string, body: string | FormData): Promise<{ status: string; error?: { code: string }; response?: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl()}/api/${path}?api_key=${encodeURIComponent(apiKey())}`, { method: "POST", ...(contentType ? { headers: { "content-type": contentType } } : {}), body });
  expect(res.status).toBe(200);
  return (await res.json()) as { status: string; error?: { code: string } };
}

describe("request bodies", () => {
  it("refuses a JSON body that does not parse, or is not an object, with BAD_REQUEST", async () => {
    for (const body of ['{"phone": "89161234567", "street": "ул. Ленина"', "[1, 2]", "null", "\"text\""]) {
      const reply = await post("order", "application/json", body);
      expect(reply.error?.code, body).toBe("BAD_REQUEST");
    }
  });

  it("reads the same parameters from each content type the document lists", async () => {
    const params = { phone: "89161234567", street: "ул. Ленина", house: "2", moderation_required: "no", pre_order_time: "2030-01-15T10:00:00+03:00" };
    const form = new FormData();
    for (const [k, v] of Object.entries(params)) form.append(k, v);
    for (const [type, body] of [
      ["application/json", JSON.stringify(params)],
      ["application/x-www-form-urlencoded", new URLSearchParams(params).toString()],
      ["", form],
    ] as const) {
      const reply = await post("order", type, body);
      expect(reply.status, `${type}: ${JSON.stringify(reply.error)}`).toBe("DONE");
      const uuid = String(reply.response!.uuid);
      const info = (await (await fetch(`${baseUrl()}/api/order?api_key=${encodeURIComponent(apiKey())}&uuid=${uuid}`)).json()) as { response: { status: number; pre_order_time_iso: string } };
      expect(info.response).toMatchObject({ status: 50, pre_order_time_iso: "2030-01-15T10:00:00+03:00" });
    }
  });
});

describe("the served document", () => {
  it("is the document of the operations, with the error object once and the integrator's callback routes", async () => {
    const doc = (await (await fetch(`${baseUrl()}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, { security: unknown[] }>>; components: { schemas: Record<string, unknown> } };
    expect(doc.components.schemas).toHaveProperty("ErrorReply");
    expect(doc.paths["/api/version"]!.get!.security).toEqual([]);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/callback", "/api/callback/test"]));
  });
});

describe("/docs", () => {
  it("serves the reference with its conventions, and is rate limited per address with Retry-After", async () => {
    const page = await fetch(`${baseUrl()}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('id="times"');
    expect(html).toContain('id="callback-signature"');
    // no stylesheet or script from another host (no CDN is reachable)
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)="https?:\/\//);
    // 60 requests at once: beyond 30 a minute from one address they are refused
    const { hostname, port } = new URL(baseUrl());
    const sockets = await Promise.all(Array.from({ length: 60 }, () => new Promise<Socket>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(socket));
      socket.once("error", reject);
    })));
    const heads = sockets.map((socket) => new Promise<string>((resolve) => {
      let head = "";
      socket.on("data", (chunk: Buffer) => {
        head += chunk.toString("latin1");
        if (head.includes("\r\n\r\n")) {
          socket.destroy();
          resolve(head.slice(0, head.indexOf("\r\n\r\n")));
        }
      });
      socket.on("close", () => resolve(head));
    }));
    for (const socket of sockets) socket.write(`GET /docs HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`);
    const replies = (await Promise.all(heads)).map((head) => ({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), retryAfter: /\r\nretry-after: *(\S+)/i.exec(head)?.[1] ?? null }));
    const limited = replies.filter((r) => r.status === 429);
    expect(limited.length, JSON.stringify(replies.map((r) => r.status))).toBeGreaterThan(0);
    for (const r of limited) expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
  });
});
