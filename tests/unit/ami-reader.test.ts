// The AMI reader's bounds (server/pbx/ami-reader.ts) and the client's log of a
// refused login (once per incident), against the test PBX
// (tests/support/ami-server.ts, written from the AMI documentation).
import { afterEach, describe, expect, it, vi } from "vitest";
import { AmiReader, encodeAction, MAX_LINE_BYTES, type AmiMessage, type AmiProblem } from "@/server/pbx/ami-reader";
import { AmiClient } from "@/server/pbx/ami-client";
import { callStepOf, extensionOfChannel } from "@/server/pbx/ami-calls";
import { log } from "@/server/log";
import { TestAmiServer } from "../support/ami-server";
import { until } from "../support/wait";

function read(chunks: Array<string | Buffer>): { messages: AmiMessage[]; problems: AmiProblem[] } {
  const messages: AmiMessage[] = [];
  const problems: AmiProblem[] = [];
  const reader = new AmiReader((m) => messages.push(m), (p) => problems.push(p));
  for (const chunk of ["Asterisk Call Manager/7.0.3\r\n", ...chunks]) reader.feed(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return { messages, problems };
}

describe("the AMI reader", () => {
  it("reads blocks, keys lower-cased, values as text (no numbers, leading zeros kept)", () => {
    const { messages } = read(["Event: Newchannel\r\nCallerIDNum: 0079161234567\r\nUniqueid: 1.2\r\n\r\n"]);
    expect(messages).toEqual([{ event: "Newchannel", calleridnum: "0079161234567", uniqueid: "1.2" }]);
  });

  it("drops an over-long line with its block, in small chunks too, and goes on", () => {
    const huge = "x".repeat(MAX_LINE_BYTES * 300);
    const chunks: string[] = ["Event: A\r\nCallerIDName: "];
    for (let i = 0; i < huge.length; i += 1000) chunks.push(huge.slice(i, i + 1000));
    chunks.push("\r\nUniqueid: 1\r\n\r\nEvent: B\r\n\r\n");
    const { messages, problems } = read(chunks);
    expect(messages).toEqual([{ event: "B" }]);
    expect(problems).toEqual(["line-too-long"]);
  });

  it("drops a block of too many fields, control characters, malformed lines; UTF-8 split across chunks is whole", () => {
    const many = "Event: Many\r\n" + Array.from({ length: 500 }, (_, i) => `K${i}: v`).join("\r\n") + "\r\n\r\n";
    const name = Buffer.from("CallerIDName: Иван\u0007\u001b\u202e\r\n\r\n");
    const split = name.indexOf(Buffer.from("в")) + 1; // inside the two bytes of "в"
    const { messages, problems } = read([many, "no colon\r\n__proto__: x\r\nEvent: C\r\n", name.subarray(0, split), name.subarray(split)]);
    expect(problems).toContain("too-many-fields");
    expect(problems).toContain("malformed-line");
    expect(messages).toHaveLength(1);
    expect(messages[0]!.calleridname).toBe("Иван");
    // "__proto__" is a key like any other here: stored as data, no prototype changed.
    expect(Object.keys(messages[0]!).sort()).toEqual(["__proto__", "calleridname", "event"]);
    expect(Object.getPrototypeOf(messages[0])).toBeNull();
  });

  it("refuses to write a value that would break out of its line", () => {
    expect(() => encodeAction([["Action", "Originate"], ["Exten", "123\r\nAction: Command"]])).toThrow();
    expect(encodeAction([["Action", "Ping"], ["ActionID", "a1"]])).toBe("Action: Ping\r\nActionID: a1\r\n\r\n");
  });
});

describe("AMI events as call steps", () => {
  it("DialBegin and Newstate ring an extension; Hangup of the call's first channel ends it", () => {
    expect(extensionOfChannel("PJSIP/101-0000002a")).toBe("101");
    expect(callStepOf({ event: "DialBegin", uniqueid: "1.1", linkedid: "1.1", calleridnum: "+79161234567", calleridname: "Ann", destchannel: "PJSIP/101-1" })).toEqual({
      kind: "ringing",
      externalId: "1.1",
      phone: "+79161234567",
      callerName: "Ann",
      extension: "101",
    });
    expect(callStepOf({ event: "Newstate", channel: "SIP/102-9", channelstate: "5", uniqueid: "1.2", linkedid: "1.1", connectedlinenum: "+7916" })).toMatchObject({ kind: "ringing", extension: "102" });
    expect(callStepOf({ event: "Hangup", uniqueid: "1.2", linkedid: "1.1" })).toBeNull();
    expect(callStepOf({ event: "Hangup", uniqueid: "1.1", linkedid: "1.1" })).toEqual({ kind: "ended", externalId: "1.1" });
    expect(callStepOf({ event: "DialBegin", uniqueid: "1.1" })).toBeNull();
  });
});

describe("the AMI client", () => {
  let ami: TestAmiServer | undefined;
  let client: AmiClient | undefined;
  afterEach(async () => {
    client?.stop();
    await ami?.close();
    vi.restoreAllMocks();
  });

  it("logs a refused login once however often it retries", async () => {
    ami = await TestAmiServer.start({ secret: "the-right-one" });
    const lines: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    client = new AmiClient({ host: "127.0.0.1", port: ami.actualPort, username: "taxi", secret: "wrong", pingMs: 1000, reconnectMaxMs: 100, log, onEvent: () => undefined });
    client.start();
    await until("three refused logins", () => ami!.refusedLogins >= 3, 10_000);
    expect(lines.filter((l) => l.includes("pbx: AMI login refused"))).toHaveLength(1);
  });
});
