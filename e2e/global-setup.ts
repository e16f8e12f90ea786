// Starts the real application once for the browser tests (production build,
// embedded PGlite in a temporary directory, demo city seeded, Russian as the
// console's default language) and creates one account per role through the
// console's own tRPC API. The URL and secrets reach the tests by environment.
import { DEFAULT_APP_SECRET, freePortBelowEphemeral, startServer } from "../tests/support/server";
import { AMI_SECRET, AMI_USER } from "../tests/support/ami-server";
import { acquireTemplate, cloneTemplate } from "../tests/reliability/support/db";
import { signInApi, trpc } from "./support/console-api";
import { ROLES, userOf } from "./support/env";

export default async function globalSetup(): Promise<() => Promise<void>> {
  // Named here and handed to the specs as E2E_APP_SECRET: a spec that starts a server of its own may set
  // process.env.APP_SECRET for it in the same worker (panel.spec.ts), which must not change what the others derive.
  const appSecret = process.env.APP_SECRET ?? DEFAULT_APP_SECRET;
  // The PBX: e2e/phone.spec.ts plays it on this port; until then the server keeps trying to reach it (as it
  // would a PBX that starts after it). Operators without an extension still get tel: links.
  const amiPort = await freePortBelowEphemeral();
  process.env.E2E_AMI_PORT = String(amiPort);
  // Under `npm test` (TEST_TEMPLATES) a copy of the run's seeded PGlite template, as the other lanes
  // use (shards each start their own); alone, a first start that seeds.
  const template = process.env.TEST_TEMPLATES ? await acquireTemplate("pglite") : undefined;
  const database = template ? await cloneTemplate(template) : undefined;
  const server = await startServer({
    // DISPATCH_HINT_MIN_IDLE_SECONDS 0: a driver just on shift gets the region hint (e2e/driver-app.spec.ts);
    // DISPATCH_HINT_BACKLOG_SECONDS 0: the seed's free orders wait for the console specs with no live car, and the
    // hint's guard would hold every hint (the guard is tested in tests/integration/driver-hint.test.ts);
    // DISPATCH_HINT_REFRESH_SECONDS 0: the city's plan is made anew at each ask, else a plan another spec's phone
    // asked for in the last 30 s, made before the hint spec's driver was free, leaves that driver out.
    env: { ...database?.env, LANGUAGE: "ru", APP_SECRET: appSecret, DISPATCH_HINT_MIN_IDLE_SECONDS: "0", DISPATCH_HINT_BACKLOG_SECONDS: "0", DISPATCH_HINT_REFRESH_SECONDS: "0", AMI_URL: `ami://${AMI_USER}:${AMI_SECRET}@127.0.0.1:${amiPort}`, AMI_RECONNECT_MAX_SECONDS: "0.5" },
    seeded: template ? { ...template, appSecret } : undefined,
  });
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
    await database?.drop();
  };
}
