// The pages the custom server answers itself on the panel's paths, before
// Next: a refused certificate (403, with the reason in words the participant
// can act on) and the panel asked for on a listener that does not serve it.
// Self-contained HTML (inline styles), Russian or English.
import type { IncomingMessage } from "node:http";
import { localeFromCookieHeader, parseLocale, type Locale } from "../console/locale";
import type { Refusal } from "../certificates/verify";

const REASONS: Record<Refusal, { ru: string; en: string }> = {
  NO_CERTIFICATE: {
    ru: "Браузер не предъявил сертификат доступа. Установите файл PKCS#12, выданный поддержкой биржи, и откройте панель снова — браузер предложит выбрать сертификат.",
    en: "Your browser presented no access certificate. Install the PKCS#12 file issued by the exchange's support and open the panel again: the browser will offer to choose the certificate.",
  },
  FOREIGN_AUTHORITY: {
    ru: "Сертификат выдан не удостоверяющим центром биржи. Панель открывают только сертификаты, выданные поддержкой биржи.",
    en: "The certificate was not issued by the exchange's certificate authority. Only certificates issued by the exchange's support open the panel.",
  },
  EXPIRED: {
    ru: "Срок действия сертификата истёк. Обратитесь в поддержку биржи за новым.",
    en: "The certificate has expired. Ask the exchange's support for a new one.",
  },
  NOT_YET_VALID: {
    ru: "Сертификат ещё не начал действовать. Проверьте часы компьютера или обратитесь в поддержку биржи.",
    en: "The certificate is not valid yet. Check your computer's clock or contact the exchange's support.",
  },
  REVOKED: {
    ru: "Сертификат отозван. Если доступ нужен, обратитесь в поддержку биржи за новым сертификатом.",
    en: "The certificate has been revoked. If you still need access, ask the exchange's support for a new certificate.",
  },
  NOT_A_CLIENT_CERTIFICATE: {
    ru: "Этот сертификат не предназначен для входа в панель.",
    en: "This certificate is not meant for signing in to the panel.",
  },
  UNKNOWN_CERTIFICATE: {
    ru: "Сертификат не найден в реестре выданных биржей сертификатов.",
    en: "The certificate is not in the exchange's register of issued certificates.",
  },
  NO_PARTICIPANT: {
    ru: "Сертификат не привязан к участнику биржи.",
    en: "The certificate is not linked to an exchange participant.",
  },
  BAD_CERTIFICATE: {
    ru: "Сертификат повреждён или его цепочка недействительна.",
    en: "The certificate is damaged or its chain is not valid.",
  },
  NO_ROOT: {
    ru: "Удостоверяющий центр биржи ещё не настроен. Обратитесь в поддержку биржи.",
    en: "The exchange's certificate authority is not set up yet. Contact the exchange's support.",
  },
};

const WORDS = {
  ru: {
    title: "Панель участника биржи",
    refused: "Доступ не разрешён",
    code: "Код причины",
    support: "Поддержка биржи выдаёт сертификаты доступа и отзывает их.",
    elsewhere: "Панель участника открывается по отдельному защищённому адресу",
    open: "Открыть панель",
    disabled: "Панель участника на этом сервере не включена: серверу нужен TLS (TLS_CERT и TLS_KEY или TLS_DEV).",
    notFound: "Здесь ничего нет. Панель участника — по адресу /panel.",
  },
  en: {
    title: "Exchange participant's panel",
    refused: "Access refused",
    code: "Reason code",
    support: "The exchange's support issues and revokes access certificates.",
    elsewhere: "The participant's panel opens at its own secure address",
    open: "Open the panel",
    disabled: "The participant's panel is not enabled on this server: it needs TLS (TLS_CERT and TLS_KEY, or TLS_DEV).",
    notFound: "Nothing here. The participant's panel is at /panel.",
  },
} as const;

/** The language of a request: the locale cookie, else Accept-Language, else the configured one. */
export function requestLocale(req: IncomingMessage): Locale {
  const cookie = /(?:^|;\s*)locale=([^;]*)/.exec(req.headers.cookie ?? "");
  const fromCookie = parseLocale(cookie?.[1]);
  if (fromCookie) return fromCookie;
  const accept = (req.headers["accept-language"] ?? "").toLowerCase();
  if (/^\s*ru\b/.test(accept)) return "ru";
  if (/^\s*en\b/.test(accept)) return "en";
  return localeFromCookieHeader(null);
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

function page(locale: Locale, heading: string, body: string): string {
  const w = WORDS[locale];
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(heading)} · ${escapeHtml(w.title)}</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#151a23;color:#1b2230;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",sans-serif;padding:24px;box-sizing:border-box}
main{background:#fff;border-radius:14px;max-width:520px;width:100%;padding:28px 30px 24px;box-shadow:0 24px 60px rgba(0,0,0,.35)}
.brand{display:flex;align-items:center;gap:10px;color:#667085;font-size:12.5px;margin-bottom:18px}
.mark{width:32px;height:32px;border-radius:8px;background:#f5b301;color:#151a23;display:grid;place-items:center;font-weight:800;font-size:18px}
h1{font-size:21px;margin:0 0 10px;letter-spacing:-.01em}
p{margin:0 0 12px}.muted{color:#667085;font-size:12.5px}
code{font:12px ui-monospace,Menlo,Consolas,monospace;background:#f3f4f7;border-radius:4px;padding:1px 5px}
a.btn{display:inline-block;background:#f5b301;color:#1b1600;border:1px solid #d49b00;border-radius:6px;padding:8px 16px;text-decoration:none;font-weight:600}
</style></head>
<body><main><div class="brand"><span class="mark">T</span><span>${escapeHtml(w.title)}</span></div>
<h1>${escapeHtml(heading)}</h1>${body}</main></body></html>`;
}

export function refusalPage(locale: Locale, reason: Refusal): string {
  const w = WORDS[locale];
  return page(
    locale,
    w.refused,
    `<p>${escapeHtml(REASONS[reason][locale])}</p><p class="muted">${escapeHtml(w.support)}</p><p class="muted">${escapeHtml(w.code)}: <code>${reason}</code></p>`,
  );
}

export function panelElsewherePage(locale: Locale, url: string): string {
  const w = WORDS[locale];
  return page(locale, w.title, `<p>${escapeHtml(w.elsewhere)}:</p><p><a class="btn" href="${escapeHtml(url)}">${escapeHtml(w.open)}</a></p><p class="muted"><code>${escapeHtml(url)}</code></p>`);
}

export function panelDisabledPage(locale: Locale): string {
  return page(locale, WORDS[locale].title, `<p>${escapeHtml(WORDS[locale].disabled)}</p>`);
}

export function panelNotFoundPage(locale: Locale): string {
  return page(locale, "404", `<p>${escapeHtml(WORDS[locale].notFound)}</p><p><a class="btn" href="/panel">${escapeHtml(WORDS[locale].open)}</a></p>`);
}
