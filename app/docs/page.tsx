// The dispatch API reference for integrators, rendered from the OpenAPI
// document (itself generated from the operations' zod schemas).
import type { Metadata } from "next";
import { buildOpenApiDocument } from "@/server/dispatch-api/openapi";
import { ERROR_CODES } from "@/server/errors";
import { errorMessage } from "@/server/i18n/errors";
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
