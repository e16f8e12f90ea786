// Per service: the passengers' language, the sender name and the service's
// patience (how long dispatch looks for a car before it gives up), and the
// texts per event and language. Administrators edit them in the console
// (server/trpc/routers/sms.ts, audited); reads fall back to the defaults.
import type { Db, DbOrTx } from "../db";
import { config } from "../config";
import { ValidationError } from "../errors";
import { DEFAULT_TEMPLATES, SMS_EVENTS, SMS_LANGUAGES, templateProblem, type SmsEvent, type SmsLanguage } from "../../shared/sms/templates";

export interface ServiceSms {
  serviceId: number;
  language: SmsLanguage;
  sender: string;
  patienceMinutes: number;
}

function asLanguage(value: string | undefined): SmsLanguage {
  return (SMS_LANGUAGES as readonly string[]).includes(value ?? "") ? (value as SmsLanguage) : config().LANGUAGE;
}

export async function serviceSms(db: DbOrTx, serviceId: number): Promise<ServiceSms> {
  const row = await db.smsServiceSetting.findUnique({ where: { serviceId }, select: { language: true, sender: true, patienceMinutes: true } });
  return { serviceId, language: asLanguage(row?.language), sender: row?.sender ?? "", patienceMinutes: row?.patienceMinutes ?? 0 };
}

/** The text of an event for a service in a language: the service's own, else the built-in one. */
export async function templateFor(db: DbOrTx, serviceId: number, language: SmsLanguage, event: SmsEvent): Promise<string> {
  const row = await db.smsTemplate.findUnique({ where: { serviceId_language_event: { serviceId, language, event } }, select: { text: true } });
  return row?.text ?? DEFAULT_TEMPLATES[language][event];
}

export interface TemplateRow {
  language: SmsLanguage;
  event: SmsEvent;
  text: string;
  /** false: the built-in text (no row of the service's own). */
  own: boolean;
}

/** Every event in every language for a service, with its settings: the console's editor. */
export async function serviceTemplates(db: DbOrTx, serviceId: number): Promise<{ settings: ServiceSms; templates: TemplateRow[] }> {
  await serviceExists(db, serviceId);
  const rows = await db.smsTemplate.findMany({ where: { serviceId }, select: { language: true, event: true, text: true } });
  const own = new Map(rows.map((r) => [`${r.language}:${r.event}`, r.text]));
  const templates = SMS_LANGUAGES.flatMap((language) =>
    SMS_EVENTS.map((event) => {
      const text = own.get(`${language}:${event}`);
      return { language, event, text: text ?? DEFAULT_TEMPLATES[language][event], own: text !== undefined };
    }),
  );
  return { settings: await serviceSms(db, serviceId), templates };
}

async function serviceExists(db: DbOrTx, serviceId: number): Promise<void> {
  const service = await db.service.findUnique({ where: { id: serviceId }, select: { id: true } });
  if (!service) throw new ValidationError("NOT_FOUND", { what: "Service", id: serviceId });
}

/** Saves a service's text for an event and language (null: back to the built-in text). Returns what changed, for the audit. */
export async function saveTemplate(db: Db, input: { serviceId: number; language: SmsLanguage; event: SmsEvent; text: string | null }) {
  const text = input.text === null ? null : input.text.replace(/\r\n/g, "\n").trim();
  if (text !== null) {
    const problem = templateProblem(text);
    if (problem) throw new ValidationError("BAD_PARAMETER", { parameter: "text", reasonKey: `smsTemplate.${problem.kind}`, names: problem.names?.join(", ") ?? "" });
  }
  return db.$transaction(async (tx) => {
    await serviceExists(tx, input.serviceId);
    const where = { serviceId_language_event: { serviceId: input.serviceId, language: input.language, event: input.event } };
    const before = await tx.smsTemplate.findUnique({ where, select: { text: true } });
    if (text === null) await tx.smsTemplate.deleteMany({ where: { serviceId: input.serviceId, language: input.language, event: input.event } });
    else await tx.smsTemplate.upsert({ where, create: { serviceId: input.serviceId, language: input.language, event: input.event, text }, update: { text }, select: { id: true } });
    return { serviceId: input.serviceId, language: input.language, event: input.event, changes: { text: [before?.text ?? null, text] } };
  });
}

/** Saves a service's language, sender name and patience. */
export async function saveServiceSms(db: Db, input: ServiceSms) {
  const sender = input.sender.trim();
  // An SMPP alphanumeric source address holds 11 characters (GSM 03.40); a number up to 15 digits.
  if (sender && !/^(?:[A-Za-z0-9 ._-]{1,11}|\+?\d{3,15})$/.test(sender)) throw new ValidationError("BAD_PARAMETER", { parameter: "sender", reasonKey: "smsSender" });
  return db.$transaction(async (tx) => {
    await serviceExists(tx, input.serviceId);
    const before = await tx.smsServiceSetting.findUnique({ where: { serviceId: input.serviceId }, select: { language: true, sender: true, patienceMinutes: true } });
    const data = { language: input.language, sender, patienceMinutes: input.patienceMinutes };
    await tx.smsServiceSetting.upsert({ where: { serviceId: input.serviceId }, create: { serviceId: input.serviceId, ...data }, update: data, select: { serviceId: true } });
    return {
      serviceId: input.serviceId,
      changes: {
        language: [before?.language ?? null, data.language],
        sender: [before?.sender ?? null, data.sender],
        patienceMinutes: [before?.patienceMinutes ?? null, data.patienceMinutes],
      },
    };
  });
}
