// The guaranteed-price token: what was priced, signed with the application
// secret (HMAC-SHA256) and expiring. Stateless, so any instance accepts a
// token another issued; that it is used once is decided by the database (the
// order's unique price_token column holds the token's id).
import { createHmac, createSecretKey, randomUUID, timingSafeEqual, type KeyObject } from "node:crypto";
import { z } from "zod";
import { appSecret } from "../auth/secret";
import { PricingError } from "../errors";

const pointSchema = z.object({
  street: z.string(),
  house: z.string(),
  lat: z.number(),
  lon: z.number(),
  name: z.string().optional(),
  entrance: z.string().optional(),
  floor: z.string().optional(),
  apartment: z.string().optional(),
  regionId: z.number().nullable().optional(),
});

export const priceTokenSchema = z.object({
  /** token id: the order remembers it, so a token makes one order */
  jti: z.string(),
  exp: z.number(),
  amount: z.number().int(),
  distance: z.number().int(),
  routeTime: z.number().int(),
  cityId: z.number().int(),
  serviceId: z.number().int(),
  queueId: z.number().int().nullable(),
  rateId: z.number().int(),
  regionId: z.number().int().nullable(),
  phone: z.string().nullable(),
  customerId: z.number().int().nullable(),
  points: z.array(pointSchema).min(1),
  extras: z.array(z.tuple([z.number().int(), z.number().int()])),
  preOrderTime: z.string().nullable(),
  bonusUsed: z.number().int(),
  markupPercent: z.number(),
});

export type PriceToken = z.infer<typeof priceTokenSchema>;

// The secret as a key object, made once: importing a string key on every
// signature was a visible share of an estimate's CPU (docs/performance.md).
let signingKey: { secret: string; key: KeyObject } | undefined;

function sign(body: string): string {
  const secret = appSecret();
  if (signingKey?.secret !== secret) signingKey = { secret, key: createSecretKey(Buffer.from(secret, "utf8")) };
  return createHmac("sha256", signingKey.key).update(body).digest("base64url");
}

/**
 * The longest token order creation accepts, and so the longest the estimate
 * issues: room for 20 points with long Cyrillic names, entrances and
 * apartments (a realistic worst case is under 30,000 characters). Tokens are
 * sent in the form body (256 KiB), never in a URL.
 */
export const MAX_PRICE_TOKEN_LENGTH = 65_536;

export function issuePriceToken(claims: Omit<PriceToken, "jti" | "exp">, ttlSeconds: number, now = Date.now()): string {
  const token: PriceToken = { ...claims, jti: randomUUID(), exp: Math.floor(now / 1000) + ttlSeconds };
  const body = Buffer.from(JSON.stringify(token), "utf8").toString("base64url");
  const signed = `${body}.${sign(body)}`;
  // Only addresses far beyond any real one get here (each field is cut to 200 characters).
  if (signed.length > MAX_PRICE_TOKEN_LENGTH) throw new PricingError("BAD_PARAMETER", { parameter: "way_points", expected: "shorter addresses" });
  return signed;
}

/** The claims of a genuine, unexpired token; PricingError otherwise. */
export function verifyPriceToken(token: string, now = Date.now()): PriceToken {
  const [body, signature, ...rest] = token.split(".");
  if (!body || !signature || rest.length) throw new PricingError("TOKEN_INVALID");
  const expected = Buffer.from(sign(body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new PricingError("TOKEN_INVALID");
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    throw new PricingError("TOKEN_INVALID");
  }
  const claims = priceTokenSchema.safeParse(parsed);
  if (!claims.success) throw new PricingError("TOKEN_INVALID");
  if (claims.data.exp * 1000 < now) throw new PricingError("TOKEN_EXPIRED");
  return claims.data;
}
