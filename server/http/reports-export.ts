// The reports' exports: GET /reports/<report>.csv and /reports/<report>.xlsx
// with the report's filters as query parameters (server/reports/query.ts),
// for a console session holding a reports role. Served by the custom server
// (one line in public-routes.ts), streamed. Refusals in the console's
// language as plain text: 401 without a session, 403 for a role without
// access (audited: who tried which report), 400 for bad input (a period over
// a year, an unknown filter, a malformed date), 404 for an unknown report.
import type { IncomingMessage, ServerResponse } from "node:http";
import { db } from "../db";
import { sessionClaims } from "../auth/session-cookie";
import { hasAnyRole, resolveConsoleUser } from "../console/session";
import { localeFromCookieHeader, type Locale } from "../console/locale";
import { writeAudit } from "../audit/write-audit";
import { knownError } from "../errors";
import { domainErrorMessage } from "../trpc/init";
import { serverMessages, roleTitle } from "../../shared/i18n/console";
import { REPORT_KINDS, parseExportParams, type ReportKind } from "../reports/query";
import { REPORT_ROLES, runReport } from "../reports/run";
import { reportSheets } from "../reports/tables";
import { writeCsv, writeXlsx } from "../reports/export";
import { ReportError } from "../reports/errors";
import { log } from "../log";

export const REPORT_EXPORT_PATH = /^\/reports\/([A-Za-z0-9_-]{1,40})\.(csv|xlsx)$/;

const CONTENT_TYPE = { csv: "text/csv; charset=utf-8", xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" } as const;

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" }).end(message);
}

export async function handleReportExport(req: IncomingMessage, res: ServerResponse): Promise<void> {
  req.resume();
  const url = new URL(req.url ?? "/", "http://local");
  const locale: Locale = localeFromCookieHeader(req.headers.cookie);
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.setHeader("allow", "GET, HEAD");
    return refuse(res, 405, locale === "ru" ? "Только GET" : "Only GET is served here");
  }
  const match = REPORT_EXPORT_PATH.exec(url.pathname);
  const user = await resolveConsoleUser(db(), await sessionClaims(req.headers.cookie));
  if (!user) return refuse(res, 401, serverMessages[locale].signInAgain);
  const kindName = match?.[1] ?? "";
  const format = (match?.[2] ?? "csv") as "csv" | "xlsx";
  if (!hasAnyRole(user, REPORT_ROLES)) {
    await writeAudit(db(), { userId: user.id, action: "reports.export", entity: "report", entityId: kindName, details: { ok: false, error: "FORBIDDEN", format, query: url.search.slice(0, 400) } });
    return refuse(res, 403, serverMessages[locale].roleRequired(REPORT_ROLES.map((r) => roleTitle(r, locale)).join(", ")));
  }
  try {
    if (!(REPORT_KINDS as readonly string[]).includes(kindName)) throw new ReportError("reportUnknown", { report: kindName });
    const kind = kindName as ReportKind;
    const query = parseExportParams(url.searchParams);
    const { meta, data } = await runReport(db(), kind, query, user);
    const sheets = reportSheets(kind, data, meta, locale);
    const name = `${kind}-${meta.days[0] ?? "period"}${meta.days.length > 1 ? `_${meta.days[meta.days.length - 1]}` : ""}.${format}`;
    res.writeHead(200, {
      "content-type": CONTENT_TYPE[format],
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    });
    if (req.method === "HEAD") return void res.end();
    if (format === "csv") await writeCsv(res, sheets);
    else await writeXlsx(res, sheets);
    res.end();
  } catch (error) {
    const known = knownError(error);
    if (res.headersSent) {
      log.error("report export failed while streaming", { error });
      res.destroy();
      return;
    }
    if (known) return refuse(res, known.code === "NOT_FOUND" || (known instanceof ReportError && known.details.reasonKey === "reportUnknown") ? 404 : known.code === "NOT_APPLIED" ? 503 : 400, domainErrorMessage(known, locale));
    log.error("report export failed", { error });
    return refuse(res, 500, locale === "ru" ? "Внутренняя ошибка сервера, повторите запрос позже" : "Internal server error, please try again later");
  }
}
