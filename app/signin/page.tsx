// The sign-in page: email and password (next-auth credentials).
import { redirect } from "next/navigation";
import { SignInForm } from "@/app/components/signin-form";
import { getConsoleUser, getLocale, homeFor } from "@/app/components/server-session";

export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const user = await getConsoleUser();
  if (user && !params.expired) redirect(homeFor(user));
  const locale = await getLocale();
  const notice = params.expired ? "expired" : params.signedOut ? "signedOut" : null;
  return <SignInForm locale={locale} notice={notice} />;
}
