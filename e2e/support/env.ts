// What e2e/global-setup.ts started: the application's URL and the accounts.
export const ROLES = ["ADMIN", "DISPATCHER", "ACCOUNTANT", "EXCHANGE_OPERATOR", "MANAGER"] as const;
export type Role = (typeof ROLES)[number];

export const PASSWORD = "e2e-password-1";

export function env() {
  const get = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set: run through playwright.config.ts (global setup)`);
    return value;
  };
  return {
    baseUrl: get("E2E_BASE_URL"),
    apiKey: get("E2E_API_KEY"),
    adminEmail: get("E2E_ADMIN_EMAIL"),
    adminPassword: get("E2E_ADMIN_PASSWORD"),
    /** The APP_SECRET of the global setup's server (keys derived from it, e.g. the driver app's provisioning key). */
    appSecret: get("E2E_APP_SECRET"),
  };
}

/** The account holding only `role`, created by the global setup. */
export function userOf(role: Role): { email: string; password: string } {
  return { email: `${role.toLowerCase().replace("_", "-")}@e2e.local`, password: PASSWORD };
}
