// The project's own lint rules for its layers (eslint.config.js turns them on).
//
// browser-imports: code that runs in the browser imports nothing from server/
// but the types of the console's tRPC routers (`import type`, erased at build:
// tRPC's end-to-end typing needs AppRouter and nothing else). Checked in every
// file that starts with "use client", and in whole folders given to the rule
// with { everyFile: true } (app/components: modules that client components use).

const SERVER_PATH = /(^@\/server\/|^(\.\.?\/)+(\.\.\/)*server\/|\/server\/)/;
const TRPC_PATH = /(^@\/server\/trpc\/|\/server\/trpc\/)/;

function isUseClient(program) {
  const first = program.body[0];
  return first?.type === "ExpressionStatement" && first.directive === "use client";
}

/** @type {import("eslint").Rule.RuleModule} */
const browserImports = {
  meta: {
    type: "problem",
    schema: [{ type: "object", properties: { everyFile: { type: "boolean" } }, additionalProperties: false }],
    messages: {
      server: "Browser code imports nothing from server/ (found {{source}}): move what it needs into shared/.",
      typeOnly: "From server/trpc the browser may import types only (`import type`), not {{source}}.",
    },
  },
  create(context) {
    const everyFile = context.options[0]?.everyFile === true;
    let active = false;
    function check(node, source, typeOnly) {
      if (!active || typeof source !== "string" || !SERVER_PATH.test(source)) return;
      if (TRPC_PATH.test(source)) {
        if (!typeOnly) context.report({ node, messageId: "typeOnly", data: { source } });
        return;
      }
      context.report({ node, messageId: "server", data: { source } });
    }
    // Only `import type` counts: `import { type X }` may leave the module's side effects behind.
    const allTypes = (node) => node.importKind === "type";
    return {
      Program(program) {
        active = everyFile || isUseClient(program);
      },
      ImportDeclaration(node) {
        check(node, node.source.value, allTypes(node));
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, node.source.value, node.exportKind === "type");
      },
      ExportAllDeclaration(node) {
        check(node, node.source.value, node.exportKind === "type");
      },
      ImportExpression(node) {
        if (node.source.type === "Literal") check(node, node.source.value, false);
      },
    };
  },
};

export default { rules: { "browser-imports": browserImports } };
