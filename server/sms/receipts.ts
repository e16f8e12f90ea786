// Delivery receipts: an SMSC's deliver_sm with the receipt bit of esm_class
// (0x04) names the message id its submit_sm_resp gave, in the TLVs
// receipted_message_id and message_state (SMPP 3.4, 5.3.2.12 and 5.3.2.35)
// or, from SMSCs that send none, in the text of the receipt (SMPP 3.4
// Appendix B: "id:IIIIIIIIII sub:SSS dlvrd:DDD submit date:YYMMDDhhmm done
// date:YYMMDDhhmm stat:DDDDDDD err:E text: ..."). The message the id belongs
// to moves on: DELIVERED once every part is, FAILED at the first part that
// will never be.
import type { Pdu } from "smpp";
import { db } from "../db";
import { log } from "../log";
import { markReceipt } from "./messages";

export interface Receipt {
  messageId: string;
  /** DELIVRD, EXPIRED, DELETED, UNDELIV, ACCEPTD, UNKNOWN, REJECTD, ENROUTE */
  stat: string;
}

/** message_state values of SMPP 3.4 as the stat words of the receipt's text. */
const STATE_WORDS: Record<number, string> = { 1: "ENROUTE", 2: "DELIVRD", 3: "EXPIRED", 4: "DELETED", 5: "UNDELIV", 6: "ACCEPTD", 7: "UNKNOWN", 8: "REJECTD" };

const RECEIPT_BIT = 0x04;

function receiptText(pdu: Pdu): string {
  const message = pdu.short_message as { message?: unknown } | Buffer | string | undefined;
  if (typeof message === "string") return message;
  if (Buffer.isBuffer(message)) return message.toString("latin1");
  if (message && typeof message.message === "string") return message.message;
  if (message && Buffer.isBuffer(message.message)) return message.message.toString("latin1");
  return "";
}

export function parseReceipt(pdu: Pdu): Receipt | null {
  if (!(((pdu.esm_class as number | undefined) ?? 0) & RECEIPT_BIT)) return null;
  const text = receiptText(pdu);
  const tlvId = typeof pdu.receipted_message_id === "string" ? pdu.receipted_message_id : "";
  const tlvState = typeof pdu.message_state === "number" ? STATE_WORDS[pdu.message_state] : undefined;
  const id = tlvId || /(?:^|\s)id:(\S+)/i.exec(text)?.[1] || "";
  const stat = tlvState ?? /stat:(\w+)/i.exec(text)?.[1]?.toUpperCase() ?? "";
  if (!id || !stat) return null;
  return { messageId: id, stat };
}

/** Final outcomes; ENROUTE, ACCEPTD and UNKNOWN change nothing. */
function outcomeOf(stat: string): "DELIVERED" | "FAILED" | null {
  if (stat === "DELIVRD") return "DELIVERED";
  if (["EXPIRED", "DELETED", "UNDELIV", "REJECTD"].includes(stat)) return "FAILED";
  return null;
}

/**
 * Applies a receipt. A receipt can overtake our record of the submit (the
 * SMSC answers the submit and sends the receipt at once): a receipt whose id
 * is not recorded yet is tried again a few times over some seconds.
 */
export async function applyReceipt(receipt: Receipt, tries = 5): Promise<void> {
  const outcome = outcomeOf(receipt.stat);
  if (!outcome) return;
  for (let attempt = 0; attempt < tries; attempt++) {
    if (await markReceipt(db(), receipt.messageId, outcome, receipt.stat)) return;
    await new Promise((resolve) => setTimeout(resolve, 1000 * (attempt + 1)));
  }
  log.warn("SMS receipt for an unknown message", { id: receipt.messageId, stat: receipt.stat });
}
