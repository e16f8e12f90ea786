// GET /healthz: the load balancer's health check (docs/operations.md). 200
// when this instance serves and its database answers, 503 otherwise. No
// credentials, and nothing in the reply but the verdict.
import type { IncomingMessage, ServerResponse } from "node:http";
import { db } from "../db";
import { sqlQuery } from "../db/sql";

const TIMEOUT_MS = 2_000;

async function databaseAnswers(): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      sqlQuery(db(), "SELECT 1").then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), TIMEOUT_MS))),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export async function handleHealth(req: IncomingMessage, res: ServerResponse): Promise<void> {
  req.resume();
  const ok = req.method === "GET" || req.method === "HEAD" ? await databaseAnswers() : undefined;
  if (ok === undefined) {
    res.writeHead(405, { "content-type": "application/json; charset=utf-8", allow: "GET, HEAD" });
    res.end(JSON.stringify({ status: "method not allowed" }));
    return;
  }
  res.writeHead(ok ? 200 : 503, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(req.method === "HEAD" ? undefined : JSON.stringify({ status: ok ? "ok" : "database unavailable" }));
}
