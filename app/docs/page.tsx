// The dispatch API reference for integrators, rendered from the OpenAPI
// document (itself generated from the operations' zod schemas).
import type { Metadata } from "next";
import { buildOpenApiDocument } from "@/server/dispatch-api/openapi";
import { ERROR_CODES } from "@/server/errors";
import { errorMessage } from "@/server/i18n/errors";
import { CALLBACK_PLACEHOLDERS } from "@/server/notifications/callback-template";
import { ALL_STATES, STATE_TITLES, STATUS_NAMES, TOLD_BY_SMS, codeOf } from "@/shared/orders/states";
import { config, parseConfig } from "@/server/config";
import styles from "./docs.module.css";
import { ApiReference } from "./api-reference";

export const metadata: Metadata = { title: "Dispatch API reference" };

export default function DocsPage() {
  const doc = buildOpenApiDocument() as { info: { version: string } } & Record<string, unknown>;
  return (
    <main className={styles.page}>
      <header className={styles.header}>
        <h1>Dispatch API</h1>
        <p>
          Version <b>{doc.info.version}</b> · <a href="/api/openapi.json">OpenAPI 3.1 document</a> · <a href="/api/changeset">changeset</a> ·{" "}
          <a href="#conventions">conventions</a> · <a href="#times">times</a> · <a href="#statuses">statuses</a> · <a href="#callbacks">callbacks</a> ·{" "}
          <a href="#errors">errors</a>
        </p>
      </header>
      <ApiReference document={doc} />
      <section className={styles.op} id="conventions">
        <h2>Conventions</h2>
        <ul>
          <li>
            Parameters in the query string or the form body (both on POST; the same <code>api_key</code> twice is fine). An empty string counts as absent,
            unknown parameters are ignored, numbers and ids may carry spaces around them, <code>true</code>/<code>false</code> are read as <code>yes</code>/<code>no</code>.
          </li>
          <li>
            Text outside ASCII in a URL must be percent-encoded (UTF-8): <code>pattern=%D0%BB%D0%B5%D0%BD</code>, not <code>pattern=лен</code>. Node refuses raw
            UTF-8 in a request line before the request reaches us; HTTP libraries encode for you, hand-written URLs and <code>curl</code> do not
            (use <code>curl -G --data-urlencode pattern=лен</code>).
          </li>
          <li>
            <code>GET streets</code> without <code>pattern</code> (or with an empty one) lists every street and public place of <code>city_id</code> (of every city without it),
            each once, ordered by name: the chat bots download it nightly. A city we do not know has no streets (an empty list).
          </li>
          <li>
            Estimates take what chat users type: a street with no house, or a house we do not know, is priced at the street&apos;s own point with{" "}
            <code>approximate: true</code>; empty strings inside <code>way_points</code> are absent and <code>&quot;41,3&quot;</code> is 41.3; <code>extras</code> may be{" "}
            <code>{'{"3": 1}'}</code>, <code>[3, 7]</code>, <code>[]</code> or <code>3*1,7*2</code>; <code>distance</code> and <code>route_time</code> may be decimals (rounded).
            Errors name the parameter the client sent (<code>src_house</code>, <code>dst_street</code>, <code>way_points</code>).
          </li>
          <li>
            A price token holds its price for <code>PRICE_TOKEN_TTL_SECONDS</code>: by default {parseConfig({}).PRICE_TOKEN_TTL_SECONDS} s (30 minutes; this instance:{" "}
            {config().PRICE_TOKEN_TTL_SECONDS} s), long enough for a chat user on the confirmation screen. Send it in the form body: a token of 20 points with long names is
            longer than a URL may be.
          </li>
          <li>
            Retrying an order creation: send a header <code>Idempotency-Key</code> (a new UUID per order, the same one with each retry of it; 1–255 visible ASCII
            characters). A retry with the same key and parameters answers the first reply with <code>Idempotent-Replayed: true</code> and creates nothing; the same key
            with other parameters is <code>IDEMPOTENCY_KEY_REUSED</code>; keys are kept {config().IDEMPOTENCY_KEY_HOURS} hours per API key. A price token sent again by
            the key that used it answers its order. <code>NOT_APPLIED</code> means nothing was done (the database was unavailable): retry after{" "}
            <code>Retry-After</code> seconds; <code>INTERNAL</code> may have been done: retry with the same key.
          </li>
          <li>
            Phones of any country: read with libphonenumber-js, numbers without a country code in <code>DEFAULT_COUNTRY</code> (this instance: {config().DEFAULT_COUNTRY}),{" "}
            <code>8 029 …</code> is Belarus and <code>+7 701 …</code> Kazakhstan. Stored in E.164; sent to integrators with the plus (<code>+998919800555</code>); the blacklist,
            a client&apos;s history and bonuses match whatever form is sent.
          </li>
          <li>
            <code>GET drivers?code=…</code> always answers numbers in <code>lat</code>/<code>lon</code>: a driver who has reported no position yet stands at the city&apos;s
            centre with <code>position_known: false</code>.
          </li>
          <li>Error messages are in the configured <code>LANGUAGE</code> (ru by default), wholly.</li>
        </ul>
      </section>
      <section className={styles.op} id="times">
        <h2>Times</h2>
        <ul>
          <li>
            <code>pre_order_time</code> and <code>time</code> (creation) are on the clock of the order&apos;s city; <code>pre_order_time_utc</code> (the estimate) is on
            UTC&apos;s clock. Each takes the reference&apos;s <code>YYYY-MM-DD HH:MM:SS</code> (seconds optional, <code>T</code> or a space), and ISO 8601 with an offset (
            <code>2030-01-15T10:00:00+03:00</code>, <code>2030-01-15T07:00:00Z</code>), which is an exact instant whatever the parameter&apos;s clock. <code>time</code> also
            takes <code>HH:MM</code> alone: the next such time in the city.
          </li>
          <li>
            A time either means exactly what it says or is refused with <code>BAD_PARAMETER</code> naming the parameter: never ignored. Refused: dates the calendar does not
            have (2030-02-30), 24:00, 10:60, a wall-clock time the city&apos;s clock skips (a daylight-saving gap), a time in the past, and a <code>pre_order_time</code> beside a
            token that is not the estimate&apos;s own.
          </li>
          <li>
            Replies give the reference&apos;s <code>start_time</code> (<code>YYYY-MM-DD HH:MM:SS</code> on the city&apos;s clock, no offset) and, beside it, ours:{" "}
            <code>start_time_iso</code> and <code>pre_order_time_iso</code> in ISO 8601 with the city&apos;s offset.
          </li>
          <li>Half a coordinate pair (<code>lat</code> without <code>lon</code>, in any of the point parameters) is refused, never dropped.</li>
        </ul>
      </section>
      <section className={styles.op} id="statuses">
        <h2>Order statuses</h2>
        <p>
          <code>code</code> and <code>name</code> in <code>order/status</code> replies are the original product&apos;s; <code>name</code> is its Russian name whatever the
          language (integrators compare these strings), <code>state</code> our identifier. After the passenger&apos;s SMS (<code>need_notify=yes</code>) has gone, the order
          moves on by itself:{" "}
          {Object.entries(TOLD_BY_SMS).map(([from, to], i) => (
            <span key={from}>
              {i > 0 ? " and " : ""}
              {codeOf(from as keyof typeof TOLD_BY_SMS)} → {codeOf(to)}
            </span>
          ))}
          , whoever set the earlier status (a driver, a dispatcher or <code>POST order/status</code>), each with its callback.
        </p>
        <table className={styles.table}>
          <thead>
            <tr>
              <th>code</th>
              <th>name</th>
              <th>state</th>
              <th>Meaning</th>
            </tr>
          </thead>
          <tbody>
            {ALL_STATES.map((state) => (
              <tr key={state}>
                <td>{codeOf(state)}</td>
                <td>{STATUS_NAMES[state]}</td>
                <td>
                  <code>{state}</code>
                </td>
                <td>{STATE_TITLES[state].en}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className={styles.op} id="callbacks">
        <h2>Status callbacks</h2>
        <p>
          An API key may carry a callback URL template (set by its integrator with <code>POST /api/callback</code>, or in the console by an administrator). On every status change of an order made with the key it is called with
          GET, its placeholders replaced by URL-encoded values; an <code>x-delivery-id</code> header names the delivery (the same on a repeat). For example:
        </p>
        <pre>
          <code>{`https://bot.example/cheque-info?id=%id%&uuid=%uuid%&status_code=%status_code%&phonenum=%phonenum%&code=%code%&remaining=%remaining%&car_photo=%car_photo%`}</code>
        </pre>
        <p>
          becomes <code>https://bot.example/cheque-info?id=1008881&uuid=…&status_code=10&phonenum=%2B998919800555&code=054&remaining=5&car_photo=</code>. Anything else
          between percent signs is sent as written (<code>%foo%</code> reaches you as <code>%foo%</code>, never decoded as a byte).
        </p>
        <table className={styles.table}>
          <thead>
            <tr>
              <th>Placeholder</th>
              <th>Filled with</th>
            </tr>
          </thead>
          <tbody>
            {CALLBACK_PLACEHOLDERS.map((p) => (
              <tr key={p.name}>
                <td>
                  <code>%{p.name}%</code>
                </td>
                <td>{p.meaning}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h3 id="callback-self-service">Your own callback</h3>
        <p>
          <code>POST /api/callback</code> with <code>url</code> sets your key&apos;s template and answers it with a <b>secret</b>, shown only in that reply (setting the URL again
          issues a new secret; the old one stops signing at once). <code>GET /api/callback</code> reads the URL (never the secret); <code>POST /api/callback</code> with an empty{" "}
          <code>url</code> removes it; <code>POST /api/callback/test</code> sends a test callback now (order 0, the nil uuid, status 0) and says what your receiver answered.
          An administrator sees and edits the same in the console (and can issue a new secret there, shown once).
        </p>
        <h3 id="callback-signature">Signature</h3>
        <p>
          Every callback of a key with a secret carries <code>X-Callback-Signature: t=&lt;unix seconds&gt;,v1=&lt;hex HMAC-SHA256&gt;</code>, the HMAC keyed with your secret
          over <code>&lt;t&gt;.&lt;request target&gt;</code>, the request target being the path and query exactly as requested (<code>/taxi/status?uuid=…&amp;code=10</code>).
          To verify: recompute it over the request line&apos;s target as received, compare in constant time, and refuse a <code>t</code> more than five minutes away from your
          clock (a replay). Receivers that ignore headers keep working. A key whose callback was set before callbacks were signed has no secret until it is set again (here or
          in the console).
        </p>
        <pre>
          <code>{`// Node.js
const [t, v1] = header.split(",").map((p) => p.split("=")[1]);
const ok = Math.abs(Date.now() / 1000 - Number(t)) < 300 &&
  crypto.timingSafeEqual(crypto.createHmac("sha256", secret).update(\`\${t}.\${req.url}\`).digest(), Buffer.from(v1, "hex"));`}</code>
        </pre>
        <p>
          Delivery: the messages of one order go one at a time, in order. A 2xx answer delivers. A 4xx (other than 408, 425 and 429) is final for that message: it is not
          sent again, and the order&apos;s later messages go on. A timeout (10 s), a refused connection, a 5xx, 408, 425 or 429 is retried with exponential backoff and jitter (0.5 s,
          1 s, 2 s … at most an hour between attempts) for three days (the server&apos;s OUTBOX_RETRY_HOURS), and the order&apos;s later messages wait for it.
        </p>
      </section>
      <section className={styles.op} id="errors">
        <h2>Errors</h2>
        <p>
          Every failure is HTTP 200 with <code>{'{"status":"ERROR","error":{"code","message"}}'}</code>; only an unknown path is 404.
        </p>
        <table className={styles.table}>
          <thead>
            <tr>
              <th>Code</th>
              <th>Example message</th>
            </tr>
          </thead>
          <tbody>
            {ERROR_CODES.map((code) => (
              <tr key={code}>
                <td>
                  <code>{code}</code>
                </td>
                <td>{errorMessage(code, { parameter: "phone", what: "Order", address: "ул. Ленина, 1", from: "FREE", fromCode: 9, to: "IN_PROCESS", toCode: 4, method: "PUT", limit: 262144 }, "en")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </main>
  );
}
