// The passenger's tracking page (/t/<token>, docs/tracking.md): a phone
// page outside the console (no shell, no sign-in; the token is the
// capability). Read on the server for the first paint; live after that
// through /t/<token>/events. Any token that is not a working link (malformed,
// unknown, expired) is the same 404.
import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { db } from "@/server/db";
import { defaultLocale } from "@/server/console/locale";
import { findTrackedOrder } from "@/server/tracking/find-tracked-order";
import { trackingView } from "@/server/tracking/tracking-view";
import { trackingStrings } from "@/shared/i18n/tracking";
import { parseLocale, type Locale } from "@/shared/locale";
import { TrackingClient } from "./tracking-client";

export const dynamic = "force-dynamic";

// The token is in the URL: no referrer leaves with it, and no search engine keeps it.
export const metadata: Metadata = { referrer: "no-referrer", robots: { index: false, follow: false } };

/** ?lang=, else the browser's first language we speak, else the server's. */
async function trackingLocale(lang: string | string[] | undefined): Promise<Locale> {
  const asked = parseLocale(typeof lang === "string" ? lang : undefined);
  if (asked) return asked;
  const accept = (await headers()).get("accept-language") ?? "";
  for (const part of accept.split(",")) {
    const tag = parseLocale(part.trim().slice(0, 2).toLowerCase());
    if (tag) return tag;
  }
  return defaultLocale();
}

export default async function TrackingPage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await params;
  const order = await findTrackedOrder(db(), token);
  if (!order) notFound();
  const view = await trackingView(db(), order);
  const locale = await trackingLocale((await searchParams).lang);
  return (
    <div lang={locale}>
      <title>{trackingStrings[locale].title}</title>
      <TrackingClient token={token} initial={view} locale={locale} />
    </div>
  );
}
