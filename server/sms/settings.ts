// The SMS settings (docs/sms.md), a shape spread into the one configuration
// schema (server/config.ts): the provider and its connection.
import { z } from "zod";

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v));

const yesNo = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off"])
  .transform((v) => ["1", "true", "yes", "on"].includes(v));

export const smsSettings = {
  /** Who sends the passengers' SMS: log (the server's log, the default), smpp, http. */
  SMS_PROVIDER: z.enum(["log", "smpp", "http"]).default("log"),
  /** The sender name or number of every SMS (a service's own, set in the console, wins). */
  SMS_SENDER: z.string().trim().max(20).default("Taxi"),
  /** A text longer than this many parts is cut (the template's values are cut first). */
  SMS_MAX_PARTS: z.coerce.number().int().min(1).max(10).default(4),
  /** The "arriving" SMS goes when the car is this many minutes away (0: never). */
  SMS_ARRIVING_MINUTES: z.coerce.number().int().min(0).max(60).default(2),

  /** smpp://host:port or ssmpp://host:port (TLS) of the aggregator's SMSC. */
  SMPP_URL: optionalString.pipe(z.string().regex(/^s?smpp:\/\/[^/\s]+$/, "must be smpp://host:port or ssmpp://host:port").optional()),
  SMPP_SYSTEM_ID: z.string().max(15).default(""),
  SMPP_PASSWORD: z.string().max(8).default(""),
  SMPP_SYSTEM_TYPE: z.string().max(12).default(""),
  /** Messages (PDUs) per second the aggregator allows this bind. */
  SMPP_MPS: z.coerce.number().min(0.1).max(1000).default(10),
  /** The longest wait between two reconnection attempts, seconds (from 0.5 s, doubling). */
  SMPP_RECONNECT_MAX_SECONDS: z.coerce.number().min(1).max(600).default(30),
  /** Ask for delivery receipts (registered_delivery 1). */
  SMPP_DELIVERY_RECEIPTS: yesNo.default(true),
  /** How a long message travels: udh (concatenated parts, each with a 6-byte header) or payload (one submit_sm with message_payload). */
  SMPP_LONG_MESSAGES: z.enum(["udh", "payload"]).default("udh"),

  /** The HTTP provider's URL template: %phone% (+79161112233), %phone_digits% (79161112233), %text%, %sender%, %id% (the message's idempotency key). */
  SMS_HTTP_URL: optionalString.pipe(z.url().optional()),
  SMS_HTTP_METHOD: z.enum(["GET", "POST"]).default("GET"),
  /** POST only: the body template with the same placeholders, escaped for SMS_HTTP_CONTENT_TYPE. */
  SMS_HTTP_BODY: z.string().max(4000).default(""),
  SMS_HTTP_CONTENT_TYPE: z.enum(["application/x-www-form-urlencoded", "application/json"]).default("application/x-www-form-urlencoded"),
  /** The header that carries the provider's key (e.g. Authorization, X-API-Key) and its value. */
  SMS_HTTP_KEY_HEADER: optionalString.pipe(z.string().regex(/^[A-Za-z0-9-]{1,64}$/, "must be a header name").optional()),
  SMS_HTTP_KEY: z.string().default(""),
  /** A top-level field of the provider's JSON reply that holds its message id (recorded with the message). */
  SMS_HTTP_ID_FIELD: z.string().max(64).default(""),
  /**
   * The secret in the path of the HTTP provider's delivery receipts: the
   * provider calls /sms/receipt/<secret> (unset: no receipt endpoint).
   */
  SMS_HTTP_RECEIPT_SECRET: optionalString.pipe(z.string().regex(/^[A-Za-z0-9._~-]{16,200}$/, "must be 16 to 200 URL-safe characters").optional()),
  /** The receipt's fields of the message id and its status (a name, or a dotted path into a JSON body). */
  SMS_HTTP_RECEIPT_ID_FIELD: z.string().trim().min(1).max(64).default("id"),
  SMS_HTTP_RECEIPT_STATUS_FIELD: z.string().trim().min(1).max(64).default("status"),
  /** Status words or codes (comma-separated, any case) that mean delivered, and that mean it never will be; any other changes nothing. */
  SMS_HTTP_RECEIPT_DELIVERED: z.string().max(500).default("delivered,delivrd"),
  SMS_HTTP_RECEIPT_FAILED: z.string().max(500).default("failed,undelivered,undeliv,expired,rejected,rejectd,deleted"),
};
