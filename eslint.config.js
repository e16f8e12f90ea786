import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", ".next/", ".next-*/", "server/generated/", "data/", "test-results/", "playwright-report/", "bench-results/", "next-env.d.ts", "public/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  { files: ["**/*.js", "**/*.cjs", "**/*.mjs"], languageOptions: { globals: { process: "readonly", console: "readonly" } } },
);
