// The reports' one error: bad report input (a malformed date, a reversed or
// too long period, an unknown filter). A BAD_PARAMETER domain error whose
// `reasonKey` picks the console's wording (shared/i18n/console/reports.ts),
// so tRPC (server/trpc/init.ts) and the exports (server/http/reports-export.ts)
// say it in the operator's language.
import { DomainError, type ErrorDetails } from "../errors";

export type ReportReason = "reportDateInvalid" | "reportRangeReversed" | "reportPeriodTooLong" | "reportUnknownFilter" | "reportBadFilter" | "reportUnknown";

export class ReportError extends DomainError {
  constructor(reasonKey: ReportReason, details: ErrorDetails = {}) {
    super("BAD_PARAMETER", { ...details, parameter: typeof details.field === "string" ? details.field : "period", reasonKey });
  }
}
