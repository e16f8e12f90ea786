"use client";
// Leaving the console on purpose (sign-out, "sign out everywhere"). Ending the
// session ends its live stream and fails the queries in flight with
// UNAUTHORIZED at once; those must not race the sign-out's own page with
// "your session has ended".
import { signOut } from "next-auth/react";

let leaving = false;

/** Signs out and goes to the sign-in page saying so. */
export function signOutAndLeave(): void {
  leaving = true;
  void signOut({ redirect: false }).finally(() => {
    window.location.href = "/signin?signedOut=1";
  });
}

/** Sends an operator whose session ended to sign in again, unless they are signing out. */
export function toSignInExpired(): void {
  if (leaving || window.location.pathname.startsWith("/signin")) return;
  window.location.href = "/signin?expired=1";
}
