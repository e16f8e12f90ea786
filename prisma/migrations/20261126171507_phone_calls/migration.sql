-- CreateEnum
CREATE TYPE "CallDirection" AS ENUM ('IN', 'OUT');

-- CreateEnum
CREATE TYPE "CallState" AS ENUM ('RINGING', 'ANSWERED', 'MISSED', 'ENDED');

-- AlterTable
ALTER TABLE "app_user" ADD COLUMN     "extension" TEXT;

-- CreateTable
CREATE TABLE "phone_call" (
    "id" SERIAL NOT NULL,
    "source" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "direction" "CallDirection" NOT NULL,
    "state" "CallState" NOT NULL DEFAULT 'RINGING',
    "phone" TEXT NOT NULL,
    "caller_name" TEXT NOT NULL DEFAULT '',
    "extension" TEXT NOT NULL DEFAULT '',
    "user_id" INTEGER,
    "order_id" INTEGER,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "answered_at" TIMESTAMP(3),
    "ended_at" TIMESTAMP(3),
    "duration_seconds" INTEGER,
    "handled_at" TIMESTAMP(3),

    CONSTRAINT "phone_call_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "phone_call_phone_started_at_idx" ON "phone_call"("phone", "started_at");

-- CreateIndex
CREATE INDEX "phone_call_order_id_idx" ON "phone_call"("order_id");

-- CreateIndex
CREATE INDEX "phone_call_state_started_at_idx" ON "phone_call"("state", "started_at");

-- CreateIndex
CREATE UNIQUE INDEX "phone_call_source_external_id_key" ON "phone_call"("source", "external_id");

-- CreateIndex
CREATE UNIQUE INDEX "app_user_extension_key" ON "app_user"("extension");

-- AddForeignKey
ALTER TABLE "phone_call" ADD CONSTRAINT "phone_call_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "app_user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "phone_call" ADD CONSTRAINT "phone_call_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE SET NULL ON UPDATE CASCADE;

