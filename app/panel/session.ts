// The panel's request context for server components: the identity the
// custom server verified and signed (server/panel/identity.ts), the
// participant it belongs to, the language and the formats. Null identity:
// the page shows the refusal and reads nothing.
import { cache } from "react";
import { cookies, headers } from "next/headers";
import { db } from "@/server/db";
import { LOCALE_COOKIE, defaultLocale, parseLocale } from "@/server/console/locale";
import { PANEL_IDENTITY_HEADER, verifyPanelIdentity } from "@/server/panel/identity";
import { makePanelFormats, type PanelFormats } from "./format";
import { panelStrings, type Locale, type PanelStrings } from "./strings";

export interface PanelContext {
  locale: Locale;
  t: PanelStrings;
}

export interface PanelSession extends PanelContext {
  participant: { id: number; name: string; currency: string; disabled: boolean };
  certificate: { serial: string; subject: string; notAfter: Date };
  timeZone: string;
  fmt: PanelFormats;
}

export const panelLocale = cache(async (): Promise<PanelContext> => {
  const locale = parseLocale((await cookies()).get(LOCALE_COOKIE)?.value) ?? defaultLocale();
  return { locale, t: panelStrings[locale] };
});

async function exchangeTimeZone(): Promise<string> {
  const city = await db().city.findFirst({ orderBy: { id: "asc" }, select: { timezone: true } });
  return city?.timezone || "Europe/Moscow";
}

/** The verified participant of this request, or null (refused). */
export const panelSession = cache(async (): Promise<PanelSession | null> => {
  const identity = verifyPanelIdentity((await headers()).get(PANEL_IDENTITY_HEADER));
  if (!identity) return null;
  const [{ locale, t }, participant, certificate, timeZone] = await Promise.all([
    panelLocale(),
    db().exchangeParticipant.findUnique({ where: { id: identity.participantId }, select: { id: true, name: true, currency: true, disabled: true } }),
    db().issuedCertificate.findUnique({ where: { serial: identity.serial }, select: { serial: true, subject: true, notAfter: true, participantId: true } }),
    exchangeTimeZone(),
  ]);
  if (!participant || !certificate || certificate.participantId !== participant.id) return null;
  return {
    locale,
    t,
    participant,
    certificate: { serial: certificate.serial, subject: certificate.subject, notAfter: certificate.notAfter },
    timeZone,
    fmt: makePanelFormats(locale, timeZone, participant.currency || "RUB"),
  };
});
