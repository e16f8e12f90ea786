// The `extras` parameter in every form clients send it, on the estimate and
// on creation alike (clients reuse one parameter set between the two):
//   "3*1,7*2" or "3,7"            the creation form (count 1 when omitted)
//   {"3": 1, "7": 2}              the estimate form (JSON object id -> count)
//   [3, 7] / ["3", "7"] / []      an array of ids (each once), or none
import { z } from "zod";
import { ValidationError } from "../errors";
import type { ExtraRequest } from "../pricing/estimate";

const EXPECTED = 'extras as "3*1,7*2", {"3": 1} or [3, 7]';

// Built once, not per request.
const count = z.union([z.number().int().min(0).max(20), z.string().trim().regex(/^\d{1,2}$/).transform(Number)]);
const extrasObject = z.record(z.string().trim().regex(/^\d{1,9}$/), count);
const extrasArray = z.array(z.union([z.number().int().min(1).max(999_999_999), z.string().trim().regex(/^\d{1,9}$/).transform(Number)])).max(100);

export function parseExtras(text: string, param = "extras"): ExtraRequest[] {
  const trimmed = text.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new ValidationError("BAD_PARAMETER", { parameter: param, expected: EXPECTED });
    }
    if (Array.isArray(parsed)) {
      const ids = extrasArray.safeParse(parsed);
      if (!ids.success) throw new ValidationError("BAD_PARAMETER", { parameter: param, expected: EXPECTED });
      return ids.data.map((id) => ({ id, count: 1 }));
    }
    const entries = extrasObject.safeParse(parsed);
    if (!entries.success) throw new ValidationError("BAD_PARAMETER", { parameter: param, expected: EXPECTED });
    return Object.entries(entries.data)
      .filter(([, n]) => n > 0)
      .map(([id, n]) => ({ id: Number(id), count: n }));
  }
  return trimmed
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const m = /^(\d{1,9})(?:\s*\*\s*(\d{1,3}))?$/.exec(item);
      if (!m) throw new ValidationError("BAD_PARAMETER", { parameter: param, expected: EXPECTED });
      return { id: Number(m[1]), count: m[2] ? Number(m[2]) : 1 };
    });
}
