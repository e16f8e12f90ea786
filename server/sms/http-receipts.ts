// Delivery receipts of the HTTP provider: the provider calls our receipt URL
// (/sms/receipt/<SMS_HTTP_RECEIPT_SECRET>) with the message's id and its
// status, the shape of the common HTTP SMS APIs' delivery reports (46elks'
// "whendelivered": a form POST with `id` and `status` sent / delivered /
// failed; field names and status words are settings, so SMS.ru-like numeric
// codes or a JSON body with nested fields fit too). The id is the provider's
// (what SMS_HTTP_ID_FIELD recorded) or our own (%id%, which APIs echo back).
// A receipt moves the message exactly as an SMPP deliver_sm receipt does
// (markReceipt): DELIVERED, or FAILED with the status as its error.
import type { DbOrTx } from "../db";
import { DomainError } from "../errors";
import { httpMessageExists, markReceipt } from "./messages";

export class SmsError extends DomainError {}

export interface HttpReceiptSettings {
  /** The field of the id: a name, or a dotted path into a JSON body (sms.id). */
  idField: string;
  statusField: string;
  /** Status words (any case) meaning delivered, and meaning never will be. */
  delivered: string[];
  failed: string[];
}

export interface HttpReceipt {
  id: string;
  status: string;
}

export function wordsOf(list: string): string[] {
  return list
    .split(",")
    .map((w) => w.trim().toLowerCase())
    .filter(Boolean);
}

/** A field by name or dotted path; numbers are read as text (numeric status codes). */
function fieldOf(body: Record<string, unknown>, path: string): string | undefined {
  let value: unknown = body;
  for (const name of path.split(".")) {
    if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/** The receipt in a provider's call, or a refusal naming the field that is missing or malformed. */
export function readHttpReceipt(body: Record<string, unknown>, settings: HttpReceiptSettings): HttpReceipt {
  const id = fieldOf(body, settings.idField);
  const status = fieldOf(body, settings.statusField);
  if (!id) throw new SmsError("MISSING_PARAMETER", { parameter: settings.idField });
  if (!status) throw new SmsError("MISSING_PARAMETER", { parameter: settings.statusField });
  // Ids are what a provider's API returned or our uuid: short, printable, no spaces.
  if (id.length > 100 || !/^[\x21-\x7e]+$/.test(id)) throw new SmsError("BAD_PARAMETER", { parameter: settings.idField, expected: "a message id (printable, at most 100 characters)" });
  if (status.length > 40 || !/^[\p{L}\p{N}_ .-]+$/u.test(status)) throw new SmsError("BAD_PARAMETER", { parameter: settings.statusField, expected: "a status word or code" });
  return { id, status };
}

/**
 * Applies a receipt: DELIVERED or FAILED, or UNCHANGED for an intermediate
 * status (sent, queued, accepted). An id no HTTP-sent message has is
 * NOT_FOUND: the receipt may have overtaken our record of the send, and the
 * provider's retry will find it.
 */
export async function applyHttpReceipt(db: DbOrTx, receipt: HttpReceipt, settings: HttpReceiptSettings): Promise<"DELIVERED" | "FAILED" | "UNCHANGED"> {
  const word = receipt.status.toLowerCase();
  const outcome = settings.delivered.includes(word) ? "DELIVERED" : settings.failed.includes(word) ? "FAILED" : null;
  const found = outcome ? await markReceipt(db, receipt.id, outcome, receipt.status, "http") : await httpMessageExists(db, receipt.id);
  if (!found) throw new SmsError("NOT_FOUND", { what: "SMS message", id: receipt.id });
  return outcome ?? "UNCHANGED";
}
