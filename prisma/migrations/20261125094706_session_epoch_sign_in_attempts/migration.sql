-- AlterTable
ALTER TABLE "app_user" ADD COLUMN     "session_epoch" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "sign_in_attempt" (
    "key" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL,
    "window_start" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sign_in_attempt_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "sign_in_attempt_window_start_idx" ON "sign_in_attempt"("window_start");

