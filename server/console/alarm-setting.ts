// A console user's alarm sound, kept per user on the server (issue 34): on or
// off and a volume 0..100. No row yet: on at 70.
import type { DbOrTx } from "../db";

export interface AlarmSetting {
  soundOn: boolean;
  volume: number;
}

export const DEFAULT_ALARM: AlarmSetting = { soundOn: true, volume: 70 };

export async function alarmSettingOf(db: DbOrTx, userId: number): Promise<AlarmSetting> {
  const row = await db.userAlarmSetting.findUnique({ where: { userId }, select: { soundOn: true, volume: true } });
  return row ?? DEFAULT_ALARM;
}

/** Saves what was given, keeping the rest (the bell and the slider change one each). */
export async function saveAlarmSetting(db: DbOrTx, userId: number, change: Partial<AlarmSetting>): Promise<AlarmSetting> {
  return db.userAlarmSetting.upsert({
    where: { userId },
    create: { userId, ...DEFAULT_ALARM, ...change },
    update: change,
    select: { soundOn: true, volume: true },
  });
}
