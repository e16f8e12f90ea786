// NUL characters: PostgreSQL text can neither store nor compare them (the
// driver fails with "invalid byte sequence for encoding UTF8: 0x00"), so
// every public interface refuses input that holds one, as a bad parameter in
// its own error form, before it reaches a query.

/** Whether a value (a string, or parsed JSON: keys and values, however deeply nested) holds a NUL character. */
export function holdsNul(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === "string") {
      if (value.includes("\u0000")) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        if (k.includes("\u0000")) return true;
        stack.push(v);
      }
    }
  }
  return false;
}
