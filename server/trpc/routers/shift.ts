// The night shift's board helpers (issue 34): fleet counters, and the signed-in
// operator's own alarm sound. Parking queues are `dispatch.queues`. A thin
// adapter over server/console/fleet.ts and server/console/alarm-setting.ts.
import { z } from "zod";
import { boardReadProcedure, createTRPCRouter, dispatcherProcedure } from "../init";
import { fleetCounters } from "../../console/fleet";
import { alarmSettingOf, saveAlarmSetting } from "../../console/alarm-setting";

export const shiftRouter = createTRPCRouter({
  fleet: boardReadProcedure.input(z.object({ cityId: z.number().int().positive().optional() })).query(({ ctx, input }) => fleetCounters(ctx.db, input.cityId)),

  alarm: boardReadProcedure.query(({ ctx }) => alarmSettingOf(ctx.db, ctx.user.id)),

  saveAlarm: dispatcherProcedure
    .meta({ entity: "userAlarmSetting" })
    .input(z.object({ soundOn: z.boolean().optional(), volume: z.number().int().min(0).max(100).optional() }).refine((v) => v.soundOn !== undefined || v.volume !== undefined))
    .mutation(({ ctx, input }) => saveAlarmSetting(ctx.db, ctx.user.id, input)),
});
