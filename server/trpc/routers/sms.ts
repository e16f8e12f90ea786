// The passengers' SMS in the console: the texts per service, event and
// language and the service's settings (administrators; every change
// audited), and an order's messages with their states (the order card).
// A thin adapter over server/sms.
import { z } from "zod";
import { adminProcedure, createTRPCRouter, roleProcedure } from "../init";
import { SMS_EVENTS, SMS_LANGUAGES, TEMPLATE_MAX_LENGTH } from "../../../shared/sms/templates";
import { saveServiceSms, saveTemplate, serviceTemplates } from "../../sms/service-settings";
import { orderSms } from "../../sms/messages";

const id = z.number().int().positive();

export const smsRouter = createTRPCRouter({
  /** Every event's text in every language for a service (its own or the built-in one), with the service's settings. */
  templates: adminProcedure.input(z.object({ serviceId: id })).query(({ ctx, input }) => serviceTemplates(ctx.db, input.serviceId)),

  /** A service's text for an event and language; null: back to the built-in text. */
  saveTemplate: adminProcedure
    .meta({ entity: "smsTemplate" })
    .input(
      z.object({
        serviceId: id,
        language: z.enum(SMS_LANGUAGES),
        event: z.enum(SMS_EVENTS),
        // The service checks placeholders and characters; the length here bounds the input first.
        text: z.string().max(TEMPLATE_MAX_LENGTH * 2).nullable(),
      }),
    )
    .mutation(({ ctx, input }) => saveTemplate(ctx.db, input)),

  saveSettings: adminProcedure
    .meta({ entity: "smsServiceSetting" })
    .input(
      z.object({
        serviceId: id,
        language: z.enum(SMS_LANGUAGES),
        sender: z.string().max(20),
        patienceMinutes: z.number().int().min(0).max(24 * 60),
      }),
    )
    .mutation(({ ctx, input }) => saveServiceSms(ctx.db, input)),

  /** What the order's passenger was sent, with each message's state (the order card). */
  order: roleProcedure("DISPATCHER", "ADMIN")
    .input(z.object({ orderId: id }))
    .query(async ({ ctx, input }) => (await orderSms(ctx.db, input.orderId)).map((m) => ({ ...m, createdAt: m.createdAt.toISOString(), sentAt: m.sentAt?.toISOString() ?? null, deliveredAt: m.deliveredAt?.toISOString() ?? null, failedAt: m.failedAt?.toISOString() ?? null }))),
});
