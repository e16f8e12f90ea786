import js from "@eslint/js";
import regexp from "eslint-plugin-regexp";
import tseslint from "typescript-eslint";
import layers from "./eslint/layers.js";
import reactHooks from "eslint-plugin-react-hooks";
import nextPlugin from "@next/eslint-plugin-next";

// Rules that several blocks below share: a later block's setting of a rule
// replaces an earlier one for the files both match, so each block that sets
// no-restricted-imports / no-restricted-syntax repeats the shared entries.
const OUTGOING_IMPORTS = [
  { name: "undici", message: "Use sendOutgoing from server/http/outgoing.ts." },
  { name: "node:https", importNames: ["request", "get"], message: "Use sendOutgoing from server/http/outgoing.ts." },
];
const LIKE_ESCAPE = {
  selector: "Property[key.name=/^(contains|startsWith|endsWith)$/][value.type!='Literal'][value.callee.name!='escapeLike']",
  message: "Prisma passes this to LIKE unescaped: wrap it in escapeLike (server/db/like.ts).",
};

// SQL text enters through one door, server/db/sql.ts (sqlQuery, sqlExecute,
// preparedQuery, rawQuery): nothing else calls Prisma's raw methods or the
// raw driver, so statements are easy to find and review.
const RAW_SQL = [
  {
    selector: "MemberExpression[property.name=/^\\$(queryRawUnsafe|executeRawUnsafe|queryRaw|executeRaw)$/]",
    message: "Run SQL through server/db/sql.ts (sqlQuery / sqlExecute).",
  },
  {
    selector: "MemberExpression[object.type='CallExpression'][object.callee.name='connection'][property.name='query']",
    message: "Run SQL through server/db/sql.ts (sqlQuery / sqlExecute).",
  },
  {
    selector: "VariableDeclarator[init.callee.name='connection'] > ObjectPattern > Property[key.name='query']",
    message: "Run SQL through server/db/sql.ts (sqlQuery / sqlExecute).",
  },
];
const RAW_SQL_IMPORTS = [{ regex: "^((\\.\\./)+|\\./|@/server/)db$", importNames: ["rawQuery"], message: "Import rawQuery from server/db/sql.ts, the one door for SQL." }];

// Protocol adapters (dispatch API, exchange API, participant API, the driver
// app's routes, the console's tRPC routers) parse, call a service and shape
// the reply: they hold no database access of their own. They may pass the
// client (`db()`, `ctx.db`) to a service, never query through it.
const ADAPTERS = ["server/dispatch-api/**", "server/exchange-api/**", "server/participant-api/**", "server/driver-app/api/**", "server/trpc/**"];
const ADAPTER_IMPORTS = [
  {
    group: ["**/db/*", "**/generated/prisma/client", "**/generated/prisma/models", "**/generated/prisma/models/*", "**/generated/prisma/internal/*", "pg", "@electric-sql/pglite", "@prisma/*"],
    message: "Protocol adapters hold no database access: call a domain service (server/<domain>/) instead.",
  },
];
const ADAPTER_SYNTAX = [
  {
    selector: "MemberExpression[object.type='CallExpression'][object.callee.name='db']",
    message: "Protocol adapters do not query: move this into a domain service and pass it db().",
  },
  {
    selector: "MemberExpression[object.type='MemberExpression'][object.property.name=/^(db|tx)$/]",
    message: "Protocol adapters do not query: move this into a domain service and pass it ctx.db.",
  },
];

export default tseslint.config(
  { ignores: ["node_modules/", ".next/", ".next-*/", "server/generated/", "data/", "test-results/", "playwright-report/", "bench-results/", "build/", "next-env.d.ts", "public/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Type-aware rules (the TypeScript project service reads tsconfig.json):
    // promises must be awaited or handled, and handed only where a promise fits.
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/no-unnecessary-type-assertion": "error",
    },
  },
  {
    files: ["app/**/*.tsx", "app/**/*.ts"],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ["app/**/*.tsx", "app/**/*.ts"],
    ...nextPlugin.configs.recommended,
  },
  {
    files: ["app/**/*.tsx", "app/**/*.ts"],
    ...nextPlugin.configs["core-web-vitals"],
  },
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Regular expressions on request data must run in linear time: a pattern
    // that can backtrack super-linearly lets one long request block the event loop.
    files: ["server/**/*.ts", "shared/**/*.ts", "app/**/*.ts", "app/**/*.tsx"],
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
      "no-restricted-imports": ["error", { paths: OUTGOING_IMPORTS }],
    },
  },
  {
    // Prisma's text filters are SQL LIKE with the operand unescaped: "%" and "_" would be wildcards.
    files: ["server/**/*.ts"],
    ignores: ["server/generated/**"],
    rules: {
      "no-restricted-syntax": ["error", LIKE_ESCAPE],
    },
  },
  {
    // The door itself and the database plumbing may; the simulator holds no
    // database access at all.
    files: ["server/**/*.ts"],
    ignores: ["server/generated/**", "server/db.ts", "server/db/**", "server/simulator/**"],
    rules: {
      "no-restricted-syntax": ["error", LIKE_ESCAPE, ...RAW_SQL],
      "no-restricted-imports": ["error", { paths: OUTGOING_IMPORTS, patterns: RAW_SQL_IMPORTS }],
    },
  },
  {
    files: ADAPTERS,
    rules: {
      "no-restricted-imports": ["error", { paths: OUTGOING_IMPORTS, patterns: [...ADAPTER_IMPORTS, ...RAW_SQL_IMPORTS] }],
      "no-restricted-syntax": ["error", LIKE_ESCAPE, ...RAW_SQL, ...ADAPTER_SYNTAX],
    },
  },
  {
    // The orders domain knows nothing of the exchange: the exchange reacts to
    // moves as a subscriber (server/orders/move-subscribers.ts, wired in server/subscribers.ts).
    files: ["server/orders/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: OUTGOING_IMPORTS,
          patterns: [
            ...RAW_SQL_IMPORTS,
            { group: ["**/exchange/*", "**/exchange-api/*", "**/participant-api/*"], message: "orders/ imports nothing from the exchange: register a move subscriber instead." },
          ],
        },
      ],
    },
  },
  {
    // Browser-safe code shared by the console and the server: it imports
    // nothing of the server's, of the app's, or of Node.
    files: ["shared/**/*.ts", "shared/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["@/server/*", "**/server/*", "@/app/*", "**/app/*", "**/generated/*"], message: "shared/ is browser-safe: it imports nothing from server/ or app/." },
            { group: ["node:*", "pg", "@prisma/*", "@electric-sql/*", "server-only", "next/*"], message: "shared/ is browser-safe and framework-free." },
          ],
        },
      ],
    },
  },
  {
    // Code that runs in the browser: "use client" files anywhere in app/, and
    // every module of app/components but the two that only server components use.
    files: ["app/**/*.ts", "app/**/*.tsx"],
    plugins: { layers },
    rules: { "layers/browser-imports": "error" },
  },
  {
    files: ["app/components/**/*.ts", "app/components/**/*.tsx"],
    ignores: ["app/components/server-session.ts", "app/components/guard.tsx"],
    plugins: { layers },
    rules: { "layers/browser-imports": ["error", { everyFile: true }] },
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
