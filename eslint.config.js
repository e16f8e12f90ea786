import js from "@eslint/js";
import regexp from "eslint-plugin-regexp";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", ".next/", ".next-*/", "server/generated/", "data/", "test-results/", "playwright-report/", "bench-results/", "build/", "next-env.d.ts", "public/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Regular expressions on request data must run in linear time: a pattern
    // that can backtrack super-linearly lets one long request block the event loop.
    files: ["server/**/*.ts", "app/**/*.ts", "app/**/*.tsx"],
    plugins: { regexp },
    rules: {
      "regexp/no-super-linear-backtracking": "error",
      "regexp/no-super-linear-move": "error",
      "regexp/no-misleading-capturing-group": "error",
    },
  },
  {
    // Calls to addresses the server is given go through the one outgoing
    // client (server/http/outgoing.ts: no redirects, address policy, size cap).
    // (The simulator is a client of this server's own interfaces, not of given addresses.)
    files: ["server/**/*.ts"],
    ignores: ["server/http/outgoing.ts", "server/simulator/**"],
    rules: {
      "no-restricted-globals": ["error", { name: "fetch", message: "Use sendOutgoing from server/http/outgoing.ts (no redirects, address policy, size cap)." }],
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "undici", message: "Use sendOutgoing from server/http/outgoing.ts." },
            { name: "node:https", importNames: ["request", "get"], message: "Use sendOutgoing from server/http/outgoing.ts." },
          ],
        },
      ],
    },
  },
  {
    // Prisma's text filters are SQL LIKE with the operand unescaped: "%" and "_" would be wildcards.
    files: ["server/**/*.ts"],
    ignores: ["server/generated/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "Property[key.name=/^(contains|startsWith|endsWith)$/][value.type!='Literal'][value.callee.name!='escapeLike']",
          message: "Prisma passes this to LIKE unescaped: wrap it in escapeLike (server/db/like.ts).",
        },
      ],
    },
  },
  {
    // Leaflet's tooltips and popups take HTML: what they show goes through escapeHtml.
    files: ["app/**/*.tsx", "app/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name=/^(bindTooltip|bindPopup|setTooltipContent|setPopupContent|setContent)$/][arguments.0.callee.name!='escapeHtml']",
          message: "Leaflet renders this as HTML: pass escapeHtml(text) (app/components/map/escape-html.ts).",
        },
      ],
    },
  },
  { files: ["**/*.js", "**/*.cjs", "**/*.mjs"], languageOptions: { globals: { process: "readonly", console: "readonly" } } },
);
