// Drivers the console will give an order of a service to: free, with no offer
// pending, and with a balance at or above the service's rule's minimum. The
// demo's simulated drivers pay the commission of every trip they finish, so
// over a long run some fall below the minimum and the console refuses them
// (rightly, with a reason): a walk that means to give an order picks among
// these, not among all free drivers (a failure seen in CI: a random free
// driver at -320 ₽ under a rule's minimum of 0).
import { env } from "./env";
import { signInApi, trpc, type Session } from "./console-api";

type Money = bigint | number | string;

/** Call signs of the givable drivers, in the picker's order. */
export async function givableDrivers(dispatcher: Session, serviceId: number): Promise<string[]> {
  const { baseUrl, adminEmail, adminPassword } = env();
  const admin = await signInApi(baseUrl, adminEmail, adminPassword);
  const rules = await trpc<Array<{ serviceId: number; regionId: number | null; minBalance: Money }>>(baseUrl, admin, "dispatch.settings", undefined);
  const rule = (rules.data ?? []).find((r) => r.serviceId === serviceId && r.regionId === null);
  // No rule of the service's own: the column's default (prisma/schema.prisma, DispatchSettings.minBalance).
  const minimum = BigInt(rule?.minBalance ?? -100_000);
  const accounts = await trpc<{ items: Array<{ callSign: string; balance: Money }> }>(baseUrl, admin, "balances.drivers", { limit: 500 });
  const solvent = new Set((accounts.data?.items ?? []).filter((a) => BigInt(a.balance) >= minimum).map((a) => a.callSign));
  const drivers = await trpc<Array<{ callSign: string; state: string; offered: boolean }>>(baseUrl, dispatcher, "reference.assignableDrivers", { serviceId });
  return (drivers.data ?? []).filter((d) => d.state === "FREE" && !d.offered && solvent.has(d.callSign)).map((d) => d.callSign);
}
