// Parameters that mean something only together (a point's latitude and
// longitude): one without the other is refused, naming the missing one,
// rather than dropped or mixed with another point's half.
import { ValidationError } from "../errors";

export function requirePair(input: object, first: string, second: string): void {
  const given = (name: string) => (input as Record<string, unknown>)[name] !== undefined;
  if (given(first) && !given(second)) throw new ValidationError("MISSING_PARAMETER", { parameter: second });
  if (given(second) && !given(first)) throw new ValidationError("MISSING_PARAMETER", { parameter: first });
}
