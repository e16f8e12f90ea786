// The tracking link's data endpoints under /t/<token>/ (the page itself,
// /t/<token>, is Next's: app/t/[token]/page.tsx): their input schemas. The
// token is the capability: nothing else identifies the caller.
import { z } from "zod";
import { CANCEL_REASON_MAX, RATING_COMMENT_MAX } from "../../../shared/tracking/phase";

// Control characters but the newline (\n): made of code points, not written in a regex literal.
const CONTROL = new RegExp(`[${String.fromCharCode(0)}-${String.fromCharCode(9)}${String.fromCharCode(11)}-${String.fromCharCode(31)}${String.fromCharCode(127)}]`, "g");

/** A person's words: trimmed, without control characters (a newline of a comment kept). */
const text = (max: number) =>
  z
    .string(`text of at most ${max} characters`)
    .max(max * 4, `text of at most ${max} characters`)
    .transform((s) => s.replace(CONTROL, " ").trim())
    .pipe(z.string().max(max, `text of at most ${max} characters`));

export const cancelInput = z.object({ reason: text(CANCEL_REASON_MAX).pipe(z.string().min(1, "a reason")) });

export const ratingInput = z.object({
  stars: z.number("integer from 1 to 5").int("integer from 1 to 5").min(1, "integer from 1 to 5").max(5, "integer from 1 to 5"),
  comment: text(RATING_COMMENT_MAX).optional().default(""),
});

/** The operations by path below /t/<token>/ and method. */
export const TRACKING_OPERATIONS = [
  { method: "GET", path: "state", summary: "The order as the passenger sees it" },
  { method: "GET", path: "events", summary: "The same, as server-sent events whenever the order or its car moves" },
  { method: "GET", path: "map", summary: "The streets around the pickup, for the plain base map" },
  { method: "GET", path: "call", summary: "A redirect to tel: with the driver's phone, while a car is assigned" },
  { method: "POST", path: "cancel", summary: "Cancel the order (until the car has arrived), with a reason" },
  { method: "POST", path: "rating", summary: "Rate the trip once, 1 to 5 stars, after it is done" },
] as const;
