// The driver's app (/driver): phone pages of their own, outside the console's
// shell and sign-in (the driver is known by the app key on the phone, checked
// by the driver app interface on every call), installable: the manifest,
// icons and the service worker under public/.
import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { DriverI18nProvider } from "@/app/components/driver/i18n";
import "@/app/components/driver/driver.css";

export const metadata: Metadata = {
  title: { default: "Такси — водитель · Taxi driver", template: "%s · Taxi driver" },
  description: "The taxi driver's app",
  manifest: "/driver/manifest.webmanifest",
  robots: { index: false, follow: false },
  appleWebApp: { capable: true, title: "Такси", statusBarStyle: "black" },
  icons: { icon: "/driver/icon-192.png", apple: "/driver/icon-192.png" },
  // The key travels in the fragment, which no Referer carries anyway; nothing else leaves either.
  referrer: "no-referrer",
};

export const viewport: Viewport = { themeColor: "#0f1420", width: "device-width", initialScale: 1, viewportFit: "cover" };

export default function DriverLayout({ children }: { children: ReactNode }) {
  return <DriverI18nProvider>{children}</DriverI18nProvider>;
}
