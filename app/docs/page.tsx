// The dispatch API reference for integrators, rendered from the OpenAPI
// document (itself generated from the operations' zod schemas).
import type { Metadata } from "next";
import { buildOpenApiDocument } from "@/server/dispatch-api/openapi";
import { ERROR_CODES } from "@/server/errors";
import { errorMessage } from "@/server/i18n/errors";
import { CALLBACK_PLACEHOLDERS } from "@/server/notifications/callback-template";
import { MAX_ATTEMPTS } from "@/server/notifications/worker";
import { ALL_STATES, STATE_TITLES, STATUS_NAMES, TOLD_BY_SMS, codeOf } from "@/shared/orders/states";
import { config, parseConfig } from "@/server/config";
import styles from "./docs.module.css";

export const metadata: Metadata = { title: "Dispatch API reference" };

type Schema = { type?: string | string[]; enum?: unknown[]; description?: string; properties?: Record<string, Schema>; items?: Schema; oneOf?: Schema[]; anyOf?: Schema[]; const?: unknown; pattern?: string; required?: string[] };
type Parameter = { name: string; required?: boolean; schema: Schema };
type OperationDoc = { summary: string; parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, { content?: Record<string, { schema: Schema }> }> };

function typeOf(schema: Schema | undefined): string {
  if (!schema) return "";
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(" | ");
  if (schema.type === "array") return `${typeOf(schema.items)}[]`;
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  return schema.type ?? "any";
}

function Fields({ schema }: { schema: Schema | undefined }) {
  const props = schema?.properties;
  if (!props) return <code>{typeOf(schema)}</code>;
  return (
    <ul className={styles.fields}>
      {Object.entries(props).map(([name, s]) => (
        <li key={name}>
          <code>{name}</code> <span className={styles.type}>{typeOf(s)}</span>
          {s.properties ? <Fields schema={s} /> : null}
        </li>
      ))}
    </ul>
  );
}

export default function DocsPage() {
  const doc = buildOpenApiDocument() as { info: { version: string; description: string }; paths: Record<string, Record<string, OperationDoc>> };
  return (
    <main className={styles.page}>
      <header className={styles.header}>
        <h1>Dispatch API</h1>
        <p>
          Version <b>{doc.info.version}</b> · <a href="/api/openapi.json">OpenAPI 3.1 document</a> · <a href="/api/changeset">changeset</a>
        </p>
        <p className={styles.lead}>{doc.info.description}</p>
      </header>
      <nav className={styles.toc}>
        {Object.entries(doc.paths).flatMap(([path, methods]) =>
          Object.keys(methods).map((method) => (
            <a key={`${method}${path}`} href={`#${method}${path}`}>
              <span className={styles[method]}>{method.toUpperCase()}</span> {path}
            </a>
          )),
        )}
      </nav>
      {Object.entries(doc.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => {
          const params = method === "get" ? (op.parameters ?? []) : Object.entries(op.requestBody?.content["application/x-www-form-urlencoded"]?.schema.properties ?? {}).map(([name, schema]) => ({ name, schema, required: op.requestBody?.content["application/x-www-form-urlencoded"]?.schema.required?.includes(name) }));
          const reply = op.responses["200"]?.content?.["application/json"]?.schema.oneOf?.[0];
          return (
            <section key={`${method}${path}`} id={`${method}${path}`} className={styles.op}>
              <h2>
                <span className={styles[method]}>{method.toUpperCase()}</span> <code>{path}</code>
              </h2>
              <p>{op.summary}</p>
              {params.length ? (
                <table className={styles.table}>
                  <thead>
                    <tr>
                      <th>Parameter</th>
                      <th>Type</th>
                      <th>Required</th>
                    </tr>
                  </thead>
                  <tbody>
                    {params.map((p: Parameter) => (
                      <tr key={p.name}>
                        <td>
                          <code>{p.name}</code>
                        </td>
                        <td>{typeOf(p.schema)}</td>
                        <td>{p.required ? "yes" : ""}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : null}
              <h3>Reply</h3>
              <Fields schema={reply?.properties?.response ?? reply} />
            </section>
          );
        }),
      )}
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
          An API key may carry a callback URL template (set in the console by an administrator). On every status change of an order made with the key it is called with
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
        <p>
          Delivery: the messages of one order go one at a time, in order. A 2xx answer delivers. A 4xx (other than 408, 425 and 429) is final for that message: it is not
          sent again, and the order&apos;s later messages go on. A timeout (10 s), a refused connection, a 5xx, 408, 425 or 429 is retried with exponential backoff (0.5 s,
          1 s, 2 s … at most 60 s between attempts, {MAX_ATTEMPTS} attempts, about an hour), and the order&apos;s later messages wait for it.
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
