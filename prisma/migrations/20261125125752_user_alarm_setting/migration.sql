-- CreateTable
CREATE TABLE "user_alarm_setting" (
    "user_id" INTEGER NOT NULL,
    "sound_on" BOOLEAN NOT NULL DEFAULT true,
    "volume" INTEGER NOT NULL DEFAULT 70,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_alarm_setting_pkey" PRIMARY KEY ("user_id")
);

-- AddForeignKey
ALTER TABLE "user_alarm_setting" ADD CONSTRAINT "user_alarm_setting_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "app_user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

