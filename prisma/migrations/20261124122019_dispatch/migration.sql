-- CreateEnum
CREATE TYPE "DispatchMode" AS ENUM ('AUTO', 'QUEUE', 'RADIO', 'MANUAL');

-- CreateEnum
CREATE TYPE "DispatchStrategy" AS ENUM ('GREEDY', 'BATCHED');

-- CreateEnum
CREATE TYPE "DispatchOfferKind" AS ENUM ('LIVE', 'CHAIN', 'ADVANCE');

-- CreateEnum
CREATE TYPE "DispatchOfferState" AS ENUM ('LIVE', 'ACCEPTED', 'REFUSED', 'TIMED_OUT', 'WITHDRAWN');

-- CreateTable
CREATE TABLE "dispatch_setting" (
    "id" SERIAL NOT NULL,
    "service_id" INTEGER NOT NULL,
    "region_id" INTEGER,
    "mode" "DispatchMode" NOT NULL DEFAULT 'AUTO',
    "strategy" "DispatchStrategy" NOT NULL DEFAULT 'BATCHED',
    "accept_seconds" INTEGER NOT NULL DEFAULT 20,
    "attempts" INTEGER NOT NULL DEFAULT 3,
    "radius_km" DOUBLE PRECISION NOT NULL DEFAULT 5,
    "free_long_minutes" INTEGER NOT NULL DEFAULT 5,
    "batch_seconds" INTEGER NOT NULL DEFAULT 5,
    "fairness_weight" DOUBLE PRECISION NOT NULL DEFAULT 2,
    "chain_minutes" INTEGER NOT NULL DEFAULT 4,
    "min_balance" BIGINT NOT NULL DEFAULT -100000,
    "advance_lead_minutes" INTEGER NOT NULL DEFAULT 60,
    "confirm_lead_minutes" INTEGER NOT NULL DEFAULT 20,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "dispatch_setting_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dispatch_offer" (
    "id" SERIAL NOT NULL,
    "order_id" INTEGER NOT NULL,
    "driver_id" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "kind" "DispatchOfferKind" NOT NULL,
    "state" "DispatchOfferState" NOT NULL DEFAULT 'LIVE',
    "source" TEXT NOT NULL,
    "arrival_seconds" INTEGER,
    "sent_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deadline" TIMESTAMP(3) NOT NULL,
    "answered_at" TIMESTAMP(3),
    "reason" TEXT NOT NULL DEFAULT '',
    "actor_id" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "dispatch_offer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dispatch_order" (
    "order_id" INTEGER NOT NULL,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "paused_by" TEXT NOT NULL DEFAULT '',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_try_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "radio_at" TIMESTAMP(3),

    CONSTRAINT "dispatch_order_pkey" PRIMARY KEY ("order_id")
);

-- CreateTable
CREATE TABLE "dispatch_queue_entry" (
    "driver_id" INTEGER NOT NULL,
    "region_id" INTEGER NOT NULL,
    "joined_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dispatch_queue_entry_pkey" PRIMARY KEY ("driver_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "dispatch_setting_service_id_region_id_key" ON "dispatch_setting"("service_id", "region_id");

-- CreateIndex
CREATE INDEX "dispatch_offer_order_id_sent_at_idx" ON "dispatch_offer"("order_id", "sent_at");

-- CreateIndex
CREATE INDEX "dispatch_offer_driver_id_state_idx" ON "dispatch_offer"("driver_id", "state");

-- CreateIndex
CREATE INDEX "dispatch_offer_state_deadline_idx" ON "dispatch_offer"("state", "deadline");

-- CreateIndex
CREATE INDEX "dispatch_queue_entry_region_id_joined_at_idx" ON "dispatch_queue_entry"("region_id", "joined_at");

-- AddForeignKey
ALTER TABLE "dispatch_setting" ADD CONSTRAINT "dispatch_setting_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "service"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dispatch_setting" ADD CONSTRAINT "dispatch_setting_region_id_fkey" FOREIGN KEY ("region_id") REFERENCES "region"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dispatch_offer" ADD CONSTRAINT "dispatch_offer_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dispatch_offer" ADD CONSTRAINT "dispatch_offer_driver_id_fkey" FOREIGN KEY ("driver_id") REFERENCES "driver"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dispatch_order" ADD CONSTRAINT "dispatch_order_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dispatch_queue_entry" ADD CONSTRAINT "dispatch_queue_entry_driver_id_fkey" FOREIGN KEY ("driver_id") REFERENCES "driver"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dispatch_queue_entry" ADD CONSTRAINT "dispatch_queue_entry_region_id_fkey" FOREIGN KEY ("region_id") REFERENCES "region"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Written by hand (Prisma cannot express partial indexes): the database
-- decides races between instances. One service-wide default per service (a
-- NULL region is not equal to another NULL in the unique key above); at most
-- one live offer per order and one per driver.
CREATE UNIQUE INDEX "dispatch_setting_service_default_key" ON "dispatch_setting"("service_id") WHERE "region_id" IS NULL;
CREATE UNIQUE INDEX "dispatch_offer_live_order_key" ON "dispatch_offer"("order_id") WHERE "state" = 'LIVE';
CREATE UNIQUE INDEX "dispatch_offer_live_driver_key" ON "dispatch_offer"("driver_id") WHERE "state" = 'LIVE';
