// Text PostgreSQL cannot take: a NUL character (the driver fails with
// "invalid byte sequence for encoding UTF8: 0x00"), and an unpaired UTF-16
// surrogate, which only a JSON escape (`"\ud800"`) can carry in and which the
// ORM's driver sends as invalid UTF-8 (an internal error on PostgreSQL, found
// by tests/reliability/fuzz.test.ts). Every public interface refuses input
// that holds either, as a bad parameter in its own error form, before it
// reaches a query.

/** An unpaired surrogate: a high one not followed by a low one, or a low one not preceded by a high one. */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function unstorable(text: string): boolean {
  return text.includes("\u0000") || UNPAIRED_SURROGATE.test(text);
}

/** Whether a value (a string, or parsed JSON: keys and values, however deeply nested) holds a NUL character or an unpaired surrogate. */
export function holdsUnstorableText(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === "string") {
      if (unstorable(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        if (unstorable(k)) return true;
        stack.push(v);
      }
    }
  }
  return false;
}
