// /driver/activate#key=...: the driver's phone takes the key from the link
// the console's driver card shows (app/components/driver/activate.tsx).
import type { Metadata } from "next";
import { Activate } from "@/app/components/driver/activate";

export const metadata: Metadata = { title: "Activate · Подключение" };

export default function ActivatePage() {
  return <Activate />;
}
