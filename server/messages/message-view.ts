// A message as both sides read it.
export const messageSelect = { id: true, driverId: true, sender: true, text: true, createdAt: true, readAt: true, broadcast: true } as const;

export interface MessageRow {
  id: number;
  driverId: number;
  sender: "DISPATCHER" | "DRIVER";
  text: string;
  createdAt: Date;
  readAt: Date | null;
  broadcast: string;
}

/** The driver app interface's form: `from`, `at`, `read` (by the driver for a dispatcher's, by dispatch for the driver's). */
export function driverMessageView(m: MessageRow) {
  return { id: m.id, from: m.sender, text: m.text, at: m.createdAt.toISOString(), read: m.readAt !== null };
}

export type DriverMessageView = ReturnType<typeof driverMessageView>;

/** Text of a message: trimmed, 1 to 1000 characters, no control characters but line breaks. */
export const MAX_MESSAGE_LENGTH = 1000;
export function cleanMessageText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, "").trim();
}
