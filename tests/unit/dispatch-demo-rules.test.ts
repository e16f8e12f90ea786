// The demo city dispatches automatically (npm start with the simulator): the
// first start gives every service the default rule; an existing rule — an
// operator's choice — is never overwritten.
import { expect, it } from "vitest";
import { useLocalDb } from "../support/local-db";
import { db } from "@/server/db";
import { enableDemoDispatch } from "@/server/dispatch/demo-rules";

useLocalDb();

it("gives every service the default automatic rule once, and leaves existing rules alone", async () => {
  const services = await db().service.count();
  expect(services).toBeGreaterThan(0);
  expect(await enableDemoDispatch(db())).toBe(services);
  const rules = await db().dispatchSetting.findMany({ select: { serviceId: true, regionId: true, mode: true, strategy: true } });
  expect(rules).toHaveLength(services);
  expect(rules.every((rule) => rule.regionId === null && rule.mode === "AUTO" && rule.strategy === "BATCHED")).toBe(true);

  await db().dispatchSetting.updateMany({ data: { mode: "MANUAL" } });
  expect(await enableDemoDispatch(db())).toBe(0);
  expect(await db().dispatchSetting.count({ where: { mode: "MANUAL" } })).toBe(services);
});
