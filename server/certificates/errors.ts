// Refusals of the certificate authority's operations (a DomainError, so the
// console's tRPC maps it like any other service error).
import { DomainError } from "../errors";

export class CertificateError extends DomainError {}

export function certificateError(code: ConstructorParameters<typeof CertificateError>[0], message: string, details: Record<string, string | number | boolean | null> = {}): CertificateError {
  return new CertificateError(code, { reason: message, ...details }, message);
}
