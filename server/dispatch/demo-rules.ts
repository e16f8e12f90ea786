// The demo city dispatches automatically: on the first start with the
// simulator on (npm start), every service gets the default distribution rule
// (automatic offers, batched assignment), so that the living city shows offers,
// queues and the dispatcher's panel without an administrator's first step.
// Nothing is written when any rule exists (an operator's choice stays theirs).
import type { Db } from "../db";
import { forgetSettings } from "./settings";

export async function enableDemoDispatch(db: Db): Promise<number> {
  const created = await db.$transaction(async (tx) => {
    if ((await tx.dispatchSetting.count()) > 0) return 0;
    const services = await tx.service.findMany({ select: { id: true }, orderBy: { id: "asc" } });
    const { count } = await tx.dispatchSetting.createMany({ data: services.map((service) => ({ serviceId: service.id, regionId: null })) });
    return count;
  });
  forgetSettings();
  return created;
}
