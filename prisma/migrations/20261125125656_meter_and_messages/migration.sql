-- CreateEnum
CREATE TYPE "RateKind" AS ENUM ('FIXED', 'METERED');

-- CreateEnum
CREATE TYPE "MessageSender" AS ENUM ('DISPATCHER', 'DRIVER');

-- AlterTable
ALTER TABLE "rate" ADD COLUMN     "kind" "RateKind" NOT NULL DEFAULT 'FIXED';

-- CreateTable
CREATE TABLE "order_track" (
    "id" BIGSERIAL NOT NULL,
    "order_id" INTEGER NOT NULL,
    "lat" DOUBLE PRECISION NOT NULL,
    "lon" DOUBLE PRECISION NOT NULL,
    "speed" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "at" TIMESTAMP(3) NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_track_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "driver_message" (
    "id" SERIAL NOT NULL,
    "driver_id" INTEGER NOT NULL,
    "sender" "MessageSender" NOT NULL,
    "user_id" INTEGER,
    "text" TEXT NOT NULL,
    "broadcast" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "read_at" TIMESTAMP(3),

    CONSTRAINT "driver_message_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "order_track_order_id_at_idx" ON "order_track"("order_id", "at");

-- CreateIndex
CREATE INDEX "driver_message_driver_id_id_idx" ON "driver_message"("driver_id", "id");

-- CreateIndex
CREATE INDEX "driver_message_sender_read_at_idx" ON "driver_message"("sender", "read_at");

