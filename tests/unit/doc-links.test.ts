// Every relative link in README.md and docs/*.md points at a file that exists,
// and every `#anchor` at a heading of that file, as GitHub renders it
// (github-slugger: GitHub's own slug rules, numbered duplicates included).
// README sends readers into docs/, so a moved or renamed section fails here.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import GithubSlugger from "github-slugger";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const documents = ["README.md", ...readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** The text without fenced code blocks and inline code, where brackets are not links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** The anchors GitHub gives this file's headings. */
function anchorsOf(file: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  const text = readFileSync(path.join(root, file), "utf8").replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, "");
  for (const match of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    // GitHub slugs the heading's rendered text: link targets, code ticks and emphasis marks dropped.
    const rendered = match[1]!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[`*]/g, "");
    anchors.add(slugger.slug(rendered));
  }
  return anchors;
}

/** Relative link targets of a document: [text](target) and ![alt](target), not web addresses. */
function linksOf(file: string): string[] {
  const text = prose(readFileSync(path.join(root, file), "utf8"));
  return [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe("links in README.md and docs/", () => {
  it("finds the documents and their links (the check itself works)", () => {
    expect(documents).toContain("docs/operations.md");
    expect(linksOf("README.md").length).toBeGreaterThan(5);
    expect(anchorsOf("docs/operations.md")).toContain("runtime");
  });

  for (const file of documents) {
    it(`${file}: every relative link and anchor resolves`, () => {
      const broken: string[] = [];
      for (const link of linksOf(file)) {
        const [target = "", anchor] = link.split("#", 2);
        const resolved = target === "" ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponent(target)));
        if (!existsSync(path.join(root, resolved))) {
          broken.push(`${link}: no file ${resolved}`);
          continue;
        }
        if (anchor && resolved.endsWith(".md") && !anchorsOf(resolved).has(decodeURIComponent(anchor))) broken.push(`${link}: no heading #${anchor} in ${resolved}`);
      }
      expect(broken).toEqual([]);
    });
  }
});
