-- CreateEnum
CREATE TYPE "SmsState" AS ENUM ('QUEUED', 'SENT', 'DELIVERED', 'FAILED');

-- CreateTable
CREATE TABLE "sms_message" (
    "id" SERIAL NOT NULL,
    "order_id" INTEGER,
    "delivery_id" UUID NOT NULL,
    "event" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "state" "SmsState" NOT NULL DEFAULT 'QUEUED',
    "provider" TEXT NOT NULL DEFAULT '',
    "provider_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "parts" INTEGER NOT NULL DEFAULT 1,
    "delivered_parts" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMP(3),
    "delivered_at" TIMESTAMP(3),
    "failed_at" TIMESTAMP(3),

    CONSTRAINT "sms_message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sms_template" (
    "id" SERIAL NOT NULL,
    "service_id" INTEGER NOT NULL,
    "language" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sms_template_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sms_service_setting" (
    "service_id" INTEGER NOT NULL,
    "language" TEXT NOT NULL DEFAULT 'ru',
    "sender" TEXT NOT NULL DEFAULT '',
    "patience_minutes" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sms_service_setting_pkey" PRIMARY KEY ("service_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sms_message_delivery_id_key" ON "sms_message"("delivery_id");

-- CreateIndex
CREATE INDEX "sms_message_order_id_id_idx" ON "sms_message"("order_id", "id");

-- CreateIndex
CREATE INDEX "sms_message_provider_ids_idx" ON "sms_message" USING GIN ("provider_ids");

-- CreateIndex
CREATE UNIQUE INDEX "sms_template_service_id_language_event_key" ON "sms_template"("service_id", "language", "event");

