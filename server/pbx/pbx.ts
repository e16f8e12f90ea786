// The office PBX of this instance (AMI_URL): one AMI session kept open beside
// the HTTP server (server/background.ts), its ringing turned into the call
// log and the consoles' pop-up (server/pbx/calls.ts), and click-to-call's
// Originate. With several instances each keeps its own session; the call log's
// one row per call (source "ami", the Linkedid) makes one pop-up of them.
import { randomUUID } from "node:crypto";
import { config } from "../config";
import { db as defaultDb, type Db } from "../db";
import { log } from "../log";
import { ValidationError } from "../errors";
import { AmiClient, parseAmiUrl } from "./ami-client";
import type { AmiMessage } from "./ami-reader";
import { callStepOf } from "./ami-calls";
import { callAnswered, callEnded, callPhone, callRinging, logOutgoingCall } from "./calls";
import { startOrderLinks } from "./order-links";

const key = Symbol.for("taxi.pbx");
interface PbxHolder {
  client?: AmiClient;
  /** Numbers this instance is dialling (click-to-call): their ringing is ours, not a caller's. */
  dialling: Map<string, number>;
}
type Holder = { [key]?: PbxHolder };
function holder(): PbxHolder {
  const h = globalThis as Holder;
  h[key] ??= { dialling: new Map() };
  return h[key];
}

const DIALLING_MS = 60_000;
/** Events handled one after another, at most this many waiting: a flood is dropped, not queued without end. */
const MAX_QUEUED_EVENTS = 1_000;

/** Whether click-to-call goes through the PBX (AMI_URL set). */
export function pbxConfigured(): boolean {
  return config().AMI_URL !== undefined;
}

export function pbxConnected(): boolean {
  return holder().client?.state === "ready";
}

/** Whether "Call" dials through the PBX for this operator: a PBX set and an extension in their profile. */
export async function phoneStatus(db: Db, userId: number): Promise<{ pbx: boolean; connected: boolean; extension: string | null }> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { extension: true } });
  return { pbx: pbxConfigured(), connected: pbxConnected(), extension: user?.extension ?? null };
}

function isDialling(phone: string, now = Date.now()): boolean {
  const dialling = holder().dialling;
  for (const [number, until] of dialling) if (until < now) dialling.delete(number);
  return dialling.has(phone);
}

async function handleEvent(db: Db, event: AmiMessage): Promise<void> {
  const step = callStepOf(event);
  if (!step) return;
  const source = "ami";
  if (step.kind === "ringing") {
    if (isDialling(callPhone(step.phone))) return;
    await callRinging(db, { source, externalId: step.externalId, phone: step.phone, callerName: step.callerName, extension: step.extension });
  } else if (step.kind === "answered") await callAnswered(db, { source, externalId: step.externalId, extension: step.extension });
  else await callEnded(db, { source, externalId: step.externalId });
}

/** Starts the AMI session when AMI_URL is set, and the call log's link to new orders; returns its stop. */
export function startPbx(db: Db = defaultDb()): () => Promise<void> {
  const stopOrderLinks = startOrderLinks(db);
  const cfg = config();
  if (!cfg.AMI_URL) {
    return stopOrderLinks;
  }
  let queue: Promise<void> = Promise.resolve();
  let queued = 0;
  const client = new AmiClient({
    ...parseAmiUrl(cfg.AMI_URL),
    pingMs: cfg.AMI_PING_SECONDS * 1000,
    reconnectMaxMs: cfg.AMI_RECONNECT_MAX_SECONDS * 1000,
    log,
    onEvent: (event) => {
      if (queued >= MAX_QUEUED_EVENTS) {
        log.warn("pbx: AMI events dropped", new Error("AMI events arrive faster than they are handled"));
        return;
      }
      queued += 1;
      queue = queue
        .then(() => handleEvent(db, event))
        .catch((error: unknown) => log.warn("pbx: AMI event failed", error))
        .finally(() => {
          queued -= 1;
        });
    },
  });
  holder().client = client;
  client.start();
  return async () => {
    client.stop();
    await stopOrderLinks();
    if (holder().client === client) holder().client = undefined;
    await queue;
  };
}

/**
 * Click-to-call: the PBX rings the dispatcher's extension, then dials the
 * number (AMI Originate, asynchronous: the answer says the PBX took it).
 */
export async function originateCall(db: Db, input: { userId: number; phone: string; orderId?: number }): Promise<{ callId: number }> {
  const client = holder().client;
  const cfg = config();
  if (!cfg.AMI_URL || !client) throw new ValidationError("NOT_ACCEPTABLE", { reason: "no PBX is set up", reasonKey: "noPbx" });
  const user = await db.user.findUnique({ where: { id: input.userId }, select: { extension: true } });
  if (!user?.extension) throw new ValidationError("NOT_ACCEPTABLE", { reason: "your profile has no extension", reasonKey: "noExtension" });
  const phone = callPhone(input.phone);
  const digits = phone.replace(/[^\d]/g, "");
  if (digits.length < 3) throw new ValidationError("BAD_PARAMETER", { parameter: "phone", reason: "not a number to dial" });
  // The dialplan dials what it is given: international numbers as 00… would depend on the PBX; E.164 with its plus is what most trunks take.
  const exten = phone.startsWith("+") ? `+${digits}` : digits;
  const actionId = randomUUID();
  holder().dialling.set(phone, Date.now() + DIALLING_MS);
  let reply: AmiMessage;
  try {
    reply = await client.action("Originate", [
      ["Channel", cfg.AMI_ORIGINATE_CHANNEL.replaceAll("{extension}", user.extension)],
      ["Context", cfg.AMI_ORIGINATE_CONTEXT],
      ["Exten", exten],
      ["Priority", "1"],
      ["CallerID", `"${exten}" <${user.extension}>`],
      ["Timeout", "30000"],
      ["Async", "true"],
    ]);
  } catch (error) {
    holder().dialling.delete(phone);
    throw new ValidationError("NOT_ACCEPTABLE", { reason: `the PBX did not take the call: ${error instanceof Error ? error.message : String(error)}`, reasonKey: "pbxDown" });
  }
  if (reply.response?.toLowerCase() !== "success") {
    holder().dialling.delete(phone);
    throw new ValidationError("NOT_ACCEPTABLE", { reason: `the PBX refused the call: ${reply.message ?? ""}`.trim(), reasonKey: "pbxRefused" });
  }
  const callId = await logOutgoingCall(db, { externalId: actionId, phone, extension: user.extension, userId: input.userId, orderId: input.orderId });
  return { callId };
}
