import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { getLocale } from "@/app/components/server-session";
import { Hydrated } from "@/app/components/hydrated";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Такси — диспетчерская", template: "%s · Такси" },
  description: "Taxi dispatch console",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { themeColor: "#151a23" };

export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await getLocale();
  return (
    <html lang={locale}>
      <body>
        {children}
        <Hydrated />
      </body>
    </html>
  );
}
