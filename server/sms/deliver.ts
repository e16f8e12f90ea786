// One attempt of an SMS outbox message: through the provider of this
// process, recorded on the message's record. A message whose record says it
// was sent already (an earlier attempt got through, then the outbox's own
// mark was lost to a crash) is not sent again: the retry finds it and only
// completes the outbox's bookkeeping.
import { db } from "../db";
import { config } from "../config";
import type { SmsPayload } from "./messages";
import { recordAttempt, saveParts, smsRecord } from "./messages";
import { smsProvider, type SmsOutcome } from "./provider";

export interface SmsDelivery {
  deliveryId: string;
  target: string;
  payload: unknown;
}

export type SmsDeliveryResult = { ok: true } | { ok: false; retriable: boolean; error: string; httpStatus?: number };

export async function deliverSms(delivery: SmsDelivery): Promise<SmsDeliveryResult> {
  const payload = (delivery.payload ?? {}) as Partial<SmsPayload>;
  if (typeof payload.text !== "string" || !payload.text) return { ok: false, retriable: false, error: "SMS without text" };
  const record = await smsRecord(db(), delivery.deliveryId);
  if (record && (record.state === "SENT" || record.state === "DELIVERED")) return { ok: true };
  if (record?.state === "FAILED") return { ok: false, retriable: false, error: "refused earlier by the provider" };
  const provider = await smsProvider();
  let outcome: SmsOutcome;
  try {
    outcome = await provider.send({
      id: delivery.deliveryId,
      phone: delivery.target,
      text: payload.text,
      sender: payload.sender || config().SMS_SENDER,
      // A long message's parts accepted by an earlier attempt are not sent again (server/sms/smpp.ts).
      parts: record?.parts ?? null,
      ...(record ? { saveParts: (progress) => saveParts(db(), record.id, provider.name, progress) } : {}),
    });
  } catch (error) {
    outcome = { ok: false, retriable: true, error: error instanceof Error ? error.message : String(error) };
  }
  if (record) await recordAttempt(db(), record.id, outcome);
  if (outcome.ok) return { ok: true };
  return { ok: false, retriable: outcome.retriable, error: outcome.error, ...(outcome.httpStatus ? { httpStatus: outcome.httpStatus } : {}) };
}
