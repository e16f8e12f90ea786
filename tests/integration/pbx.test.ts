// The phone (issue 34) on the shared started server, which is set up with
// AMI_URL pointing at amiPort and a cloud PBX "cloud" (tests/support/global-setup.ts).
// This file plays the PBX there (tests/support/ami-server.ts, written from
// Asterisk's AMI documentation): the server logs in after the PBX appears;
// a ring reaches the extension's owner only, or every dispatcher when the
// extension is nobody's; a missed call stays; click-to-call's Originate
// carries the dispatcher's extension and the number; the PBX dropping,
// hanging and returning; hostile streams; the call log linked to the order a
// call led to; the cloud PBX's signed webhook over HTTP.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { apiPost, baseUrl } from "../support/api";
import { until } from "../support/wait";
import { PBX_WEBHOOK_SECRET, TestAmiServer } from "../support/ami-server";
import { signInApi, trpc, uniquePhone, type Session } from "../../e2e/support/console-api";
import { createHmac } from "node:crypto";

interface ConsoleCall {
  id: number;
  state: string;
  phone: string;
  callerName: string;
  extension: string;
}

let ami: TestAmiServer;
let admin: Session;
let owner: Session; // a dispatcher with extension 101
let other: Session; // a dispatcher without one
const stamp = Date.now().toString(36);
const extension = String(100 + (Date.now() % 800));

async function calls(session: Session): Promise<ConsoleCall[]> {
  const r = await trpc<ConsoleCall[]>(baseUrl(), session, "phone.calls", undefined);
  if (r.error) throw new Error(r.error.message);
  return r.data!;
}

async function dispatcher(name: string, ext?: string): Promise<Session> {
  const email = `pbx-${name}-${stamp}@example.test`;
  const created = await trpc(baseUrl(), admin, "admin.users.create", { email, name: `PBX ${name}`, password: "pbx-password-1", roles: ["DISPATCHER"], ...(ext ? { extension: ext } : {}) }, "mutation");
  expect(created.error).toBeUndefined();
  return signInApi(baseUrl(), email, "pbx-password-1");
}

const e164 = (phone: string) => `+${phone}`;

beforeAll(async () => {
  // The server started long before the PBX (it may, in production): it keeps trying and logs in once we listen.
  ami = await TestAmiServer.start({ port: inject("amiPort") });
  admin = await signInApi(baseUrl(), inject("adminEmail"), inject("adminPassword"));
  owner = await dispatcher("owner", extension);
  other = await dispatcher("other");
  await until("the server's AMI login", () => ami.sessions === 1, 15_000);
});

afterAll(async () => {
  await ami?.close();
});

describe("the AMI session", () => {
  it("logs in with the configured user and an ActionID, and pings", async () => {
    const login = ami.actions.find((a) => a.Action === "Login")!;
    expect(login).toMatchObject({ Username: "taxi", Secret: "amisecret" });
    expect(login.ActionID).toMatch(/\S/);
    await until("a ping", () => ami.actions.some((a) => a.Action === "Ping" && a.ActionID), 5_000);
  });

  it("reconnects when the PBX drops and returns", async () => {
    const before = ami.logins;
    await ami.close();
    await until("the session seen as lost", async () => (await trpc<{ connected: boolean }>(baseUrl(), owner, "phone.status", undefined)).data?.connected === false, 10_000);
    await ami.listen();
    await until("a new login", () => ami.logins > before && ami.sessions === 1, 10_000);
    const phone = uniquePhone();
    ami.ring({ from: e164(phone), extension });
    await until("a ring after the return", async () => (await calls(owner)).some((c) => c.phone === e164(phone)), 5_000);
  });

  it("reconnects when the PBX stops answering pings", async () => {
    const before = ami.logins;
    ami.answerPings = false;
    try {
      await until("a new login after unanswered pings", () => ami.logins > before, 15_000);
    } finally {
      ami.answerPings = true;
    }
    await until("one session", () => ami.sessions === 1, 5_000);
  });
});

describe("incoming calls", () => {
  it("pop up for the dispatcher whose extension rings, and only for them", async () => {
    const phone = uniquePhone();
    const started = performance.now();
    ami.ring({ from: e164(phone), callerName: "Иван Петров", extension });
    const mine = await until("the owner's pop-up", async () => (await calls(owner)).find((c) => c.phone === e164(phone)), 5_000);
    // Newchannel (sent first) gives no pop-up: the first one to show names the extension.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(mine).toMatchObject({ state: "RINGING", callerName: "Иван Петров", extension });
    // The other dispatcher's list is read after the owner's showed the call: the decision was made.
    expect((await calls(other)).some((c) => c.phone === e164(phone))).toBe(false);
  });

  it("ring on every ringing extension's owner when a ring group rings several for one call; the missed call stays on each", async () => {
    const second = String(Number(extension) + 1000);
    const groupMate = await dispatcher(`group-${second}`, second);
    const phone = uniquePhone();
    // One call (one Linkedid), two extensions dialled: the PBX's ring group.
    const call = ami.ring({ from: e164(phone), callerName: "Группа", extension });
    ami.ring({ from: e164(phone), callerName: "Группа", extension: second, uniqueid: call.uniqueid });
    await until("the first owner's pop-up", async () => (await calls(owner)).some((c) => c.phone === e164(phone) && c.state === "RINGING"), 5_000);
    await until("the second owner's pop-up", async () => (await calls(groupMate)).some((c) => c.phone === e164(phone) && c.state === "RINGING"), 5_000);
    expect((await calls(other)).some((c) => c.phone === e164(phone)), "a dispatcher outside the group").toBe(false);
    expect((await calls(owner)).filter((c) => c.phone === e164(phone))).toHaveLength(1);
    ami.hangup(call, phone);
    const missed = await until("missed on the group mate's console", async () => (await calls(groupMate)).find((c) => c.phone === e164(phone) && c.state === "MISSED"), 5_000);
    await until("missed on the owner's console", async () => (await calls(owner)).some((c) => c.id === missed.id && c.state === "MISSED"), 5_000);
    // Either of them may dismiss it (it was theirs too).
    expect((await trpc(baseUrl(), groupMate, "phone.dismiss", { callId: missed.id }, "mutation")).error).toBeUndefined();
    expect((await calls(owner)).some((c) => c.id === missed.id)).toBe(false);
  });

  it("go to every dispatcher when the extension is nobody's; a missed call stays", async () => {
    const phone = uniquePhone();
    const call = ami.ring({ from: `8${phone.slice(1)}`, callerName: "", extension: "999" });
    await until("the owner sees it", async () => (await calls(owner)).some((c) => c.phone === e164(phone)), 5_000);
    await until("the other dispatcher sees it", async () => (await calls(other)).some((c) => c.phone === e164(phone)), 5_000);
    ami.hangup(call, phone);
    const missed = await until("missed", async () => (await calls(other)).find((c) => c.phone === e164(phone) && c.state === "MISSED"), 5_000);
    const dismissed = await trpc(baseUrl(), other, "phone.dismiss", { callId: missed.id }, "mutation");
    expect(dismissed.error).toBeUndefined();
    expect((await calls(other)).some((c) => c.id === missed.id)).toBe(false);
  });

  it("answered then ended: in the call log with its duration, linked to the order it led to", async () => {
    const phone = uniquePhone();
    const call = ami.ring({ from: e164(phone), extension });
    await until("ringing", async () => (await calls(owner)).some((c) => c.phone === e164(phone)), 5_000);
    ami.answer(call, extension, phone);
    await until("answered: off the pop-up list", async () => !(await calls(owner)).some((c) => c.phone === e164(phone)), 5_000);
    ami.hangup(call, phone);
    const order = await apiPost<{ uuid: string; order_id?: number }>("order", { phone, street: "ул. Ленина", house: "5", name: "Caller" });
    expect(order.status).toBe("DONE");
    type LogRow = { direction: string; state: string; durationSeconds: number | null; orderId: number | null; user: string | null };
    const log = await until(
      "the call linked to the order",
      async () => {
        const r = await trpc<LogRow[]>(baseUrl(), owner, "phone.log", { phone: e164(phone) });
        return r.data?.find((row) => row.orderId !== null && row.state === "ENDED");
      },
      5_000,
    );
    expect(log).toMatchObject({ direction: "IN", user: "PBX owner" });
    expect(log.durationSeconds).toBeGreaterThanOrEqual(0);
    const byOrder = await trpc<LogRow[]>(baseUrl(), owner, "phone.log", { orderId: log.orderId });
    expect(byOrder.data).toHaveLength(1);
  });

  it("missed, then an order for the caller: linked to it and off the missed list at once; a second order changes nothing", async () => {
    const phone = uniquePhone();
    const call = ami.ring({ from: e164(phone), extension });
    await until("ringing", async () => (await calls(owner)).some((c) => c.phone === e164(phone)), 5_000);
    ami.hangup(call, phone);
    await until("missed", async () => (await calls(owner)).some((c) => c.phone === e164(phone) && c.state === "MISSED"), 5_000);
    // the same call is both the one that led to the order and a missed one to mark handled
    const first = await apiPost<{ uuid: string }>("order", { phone, street: "ул. Ленина", house: "7", name: "Caller" });
    expect(first.status).toBe("DONE");
    await until("off the missed list", async () => !(await calls(owner)).some((c) => c.phone === e164(phone)), 5_000);
    type LogRow = { state: string; orderId: number | null };
    const linked = await until(
      "linked",
      async () => (await trpc<LogRow[]>(baseUrl(), owner, "phone.log", { phone: e164(phone) })).data?.find((row) => row.orderId !== null),
      5_000,
    );
    expect(linked.state).toBe("MISSED");
    const second = await apiPost<{ uuid: string }>("order", { phone, street: "ул. Ленина", house: "9", name: "Caller" });
    expect(second.status).toBe("DONE");
    await new Promise((r) => setTimeout(r, 500));
    const log = (await trpc<LogRow[]>(baseUrl(), owner, "phone.log", { phone: e164(phone) })).data ?? [];
    expect(log).toHaveLength(1);
    expect(log[0]!.orderId).toBe(linked.orderId);
  });
});

describe("click-to-call", () => {
  it("sends Originate from the dispatcher's extension to the number", async () => {
    const phone = uniquePhone();
    const before = ami.originates.length;
    const r = await trpc<{ callId: number }>(baseUrl(), owner, "phone.dial", { phone: `8 (${phone.slice(1, 4)}) ${phone.slice(4)}` }, "mutation");
    expect(r.error).toBeUndefined();
    const originate = await until("Originate", () => ami.originates[before], 5_000);
    expect(originate).toMatchObject({ Channel: `Local/${extension}@from-internal`, Context: "from-internal", Exten: e164(phone), Priority: "1" });
    expect(originate.ActionID).toMatch(/\S/);
    expect(originate.CallerID).toContain(`<${extension}>`);
  });

  it("is refused, in words, to a dispatcher without an extension", async () => {
    const r = await trpc(baseUrl(), other, "phone.dial", { phone: "+79160000000" }, "mutation");
    expect(r.error?.message).toMatch(/внутреннего номера|extension/);
  });
});

describe("hostile streams", () => {
  it("huge lines, control characters, markup and missing fields: dropped or cleaned, the session and the server go on", async () => {
    const logins = ami.logins;
    // A 2 MiB line with no end, then its end; a block of 10,000 fields; bytes that are no UTF-8.
    ami.raw(`Event: Newchannel\r\nCallerIDNum: ${"9".repeat(2 * 1024 * 1024)}`);
    ami.raw("\r\nUniqueid: x\r\n\r\n");
    ami.raw("Event: DialBegin\r\n" + Array.from({ length: 10_000 }, (_, i) => `X${i}: y`).join("\r\n") + "\r\n\r\n");
    ami.raw(Buffer.from([0xff, 0xfe, 0x00, 0x0d, 0x0a, 0x0d, 0x0a]));
    // Missing fields: a DialBegin without the caller, a Newstate without its ids, an event with no name.
    ami.event({ Event: "DialBegin", Uniqueid: "1.1", Linkedid: "1.1", DestChannel: `PJSIP/${extension}-1` });
    ami.event({ Event: "Newstate", ChannelState: "5", ConnectedLineNum: "+79990000000" });
    ami.event({ Foo: "bar" });
    ami.raw("no colon here\r\n: nothing\r\n\r\n");
    // Control characters and markup in the caller's name.
    const phone = uniquePhone();
    ami.ring({ from: e164(phone), callerName: "<img src=x onerror=alert(1)>\u0007\u001b[31mEvil\u202e", extension });
    const call = await until("the ring after the garbage", async () => (await calls(owner)).find((c) => c.phone === e164(phone)), 5_000);
    expect(call.callerName).toBe("<img src=x onerror=alert(1)>[31mEvil");
    expect(ami.logins).toBe(logins);
    const version = await fetch(`${baseUrl()}/api/version`);
    expect(version.status).toBe(200);
  });
});

describe("the cloud PBX webhook", () => {
  const url = () => `${baseUrl()}/pbx/cloud/call`;
  const sign = (timestamp: string, body: string, secret = PBX_WEBHOOK_SECRET) => `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
  const post = (body: string, headers: Record<string, string>, target = url()) => fetch(target, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  const now = () => String(Math.floor(Date.now() / 1000));

  it("is refused unsigned, wrongly signed or stale, and for an unknown PBX", async () => {
    const body = JSON.stringify({ event: "ringing", call_id: `w-${stamp}-x`, from: "+79161234567", extension });
    const unsigned = await post(body, {});
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toMatchObject({ error: { code: "UNAUTHORIZED" } });
    expect((await post(body, { "x-pbx-timestamp": now(), "x-pbx-signature": sign(now(), body, "another-secret-0123456789") })).status).toBe(401);
    expect((await post(body, { "x-pbx-timestamp": now(), "x-pbx-signature": sign(now(), `${body} `) })).status).toBe(401);
    const old = String(Math.floor(Date.now() / 1000) - 3600);
    const stale = await post(body, { "x-pbx-timestamp": old, "x-pbx-signature": sign(old, body) });
    expect(stale.status).toBe(401);
    expect(((await stale.json()) as { error: { message: string } }).error.message).toMatch(/clock/);
    expect((await post(body, { "x-pbx-timestamp": now(), "x-pbx-signature": sign(now(), body) }, `${baseUrl()}/pbx/nobody/call`)).status).toBe(404);
  });

  it("signed: the same pop-up; a signed bad body is a 400", async () => {
    const phone = uniquePhone();
    const body = JSON.stringify({ event: "ringing", call_id: `w-${stamp}-1`, from: e164(phone), caller_name: "Облако", extension });
    const t = now();
    const ok = await post(body, { "x-pbx-timestamp": t, "x-pbx-signature": sign(t, body) });
    expect(ok.status).toBe(200);
    const call = await until("the webhook's pop-up", async () => (await calls(owner)).find((c) => c.phone === e164(phone)), 5_000);
    expect(call.callerName).toBe("Облако");
    const bad = '{"event":"ringing"}';
    expect((await post(bad, { "x-pbx-timestamp": t, "x-pbx-signature": sign(t, bad) })).status).toBe(400);
  });
});
