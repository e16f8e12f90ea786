// The root: to the operator's first section, or to sign-in.
import { redirect } from "next/navigation";
import { getConsoleUser, homeFor } from "@/app/components/server-session";

export const dynamic = "force-dynamic";

export default async function Home() {
  const user = await getConsoleUser();
  redirect(user ? homeFor(user) : "/signin");
}
