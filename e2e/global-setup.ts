// Starts the real application once for the browser tests (production build,
// embedded PGlite in a temporary directory, demo city seeded, Russian as the
// console's default language) and creates one account per role through the
// console's own tRPC API. The URL and secrets reach the tests by environment.
import { DEFAULT_APP_SECRET, startServer } from "../tests/support/server";
import { signInApi, trpc } from "./support/console-api";
import { ROLES, userOf } from "./support/env";

export default async function globalSetup(): Promise<() => Promise<void>> {
  // Named here and handed to the specs as E2E_APP_SECRET: a spec that starts a server of its own may set
  // process.env.APP_SECRET for it in the same worker (panel.spec.ts), which must not change what the others derive.
  const appSecret = process.env.APP_SECRET ?? DEFAULT_APP_SECRET;
  const server = await startServer({ env: { LANGUAGE: "ru", APP_SECRET: appSecret } });
  process.env.E2E_APP_SECRET = appSecret;
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_API_KEY = server.apiKey;
  process.env.E2E_ADMIN_EMAIL = server.adminEmail;
  process.env.E2E_ADMIN_PASSWORD = server.adminPassword;

  const admin = await signInApi(server.url, server.adminEmail, server.adminPassword);
  for (const role of ROLES) {
    const { email, password } = userOf(role);
    const created = await trpc(server.url, admin, "admin.users.create", { email, name: `E2E ${role.toLowerCase()}`, password, roles: [role] }, "mutation");
    if (created.error) throw new Error(`creating ${email}: ${created.error.message}`);
  }
  return async () => {
    await server.stop();
  };
}
