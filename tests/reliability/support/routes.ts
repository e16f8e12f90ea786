// The application's routes as the file system defines them (Next's App
// Router): every page and every route file under app/, with the URL each
// serves. The security walk goes over all of them, so a route added later
// is checked without anyone remembering to.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

const APP = path.resolve(import.meta.dirname, "..", "..", "..", "app");

export interface AppRoute {
  /** The file, relative to app/, e.g. "(console)/orders/page.tsx". */
  file: string;
  kind: "page" | "route";
  /** The URL with dynamic segments filled in, e.g. /orders or /api/x. */
  url: string;
  /** Whether a segment is dynamic ([id], [...path], [[...path]]). */
  dynamic: boolean;
  /** Route groups the file is in, e.g. ["(console)"]. */
  groups: string[];
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else out.push(full);
  }
}

export function appRoutes(): AppRoute[] {
  const files: string[] = [];
  walk(APP, files);
  const routes: AppRoute[] = [];
  for (const full of files) {
    const base = path.basename(full);
    const kind = /^page\.(tsx|ts|jsx|js|mdx)$/.test(base) ? "page" : /^route\.(ts|js)$/.test(base) ? "route" : undefined;
    if (!kind) continue;
    const rel = path.relative(APP, full).split(path.sep);
    const segments = rel.slice(0, -1);
    const groups = segments.filter((s) => /^\(.*\)$/.test(s));
    let dynamic = false;
    const urlSegments = segments
      .filter((s) => !/^\(.*\)$/.test(s) && !s.startsWith("@"))
      .map((s) => {
        if (/^\[\[\.\.\..+\]\]$/.test(s) || /^\[\.\.\..+\]$/.test(s)) {
          dynamic = true;
          return "probe";
        }
        if (/^\[.+\]$/.test(s)) {
          dynamic = true;
          return "1";
        }
        return s;
      });
    routes.push({ file: rel.join("/"), kind, url: `/${urlSegments.join("/")}`, dynamic, groups });
  }
  return routes.sort((a, b) => a.file.localeCompare(b.file));
}

/** The console's pages (behind its sign-in). */
export function consolePagePaths(): string[] {
  return appRoutes()
    .filter((r) => r.kind === "page" && r.groups.includes("(console)"))
    .map((r) => r.url);
}
