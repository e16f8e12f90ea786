-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "StreetKind" AS ENUM ('STREET', 'PUBLIC_PLACE');

-- CreateEnum
CREATE TYPE "DriverState" AS ENUM ('OFFLINE', 'FREE', 'BUSY');

-- CreateEnum
CREATE TYPE "LedgerActorType" AS ENUM ('API_KEY', 'USER', 'SYSTEM', 'EXCHANGE');

-- CreateEnum
CREATE TYPE "UserRole" AS ENUM ('ADMIN', 'DISPATCHER', 'ACCOUNTANT', 'EXCHANGE_OPERATOR');

-- CreateEnum
CREATE TYPE "OrderSource" AS ENUM ('API', 'CONSOLE', 'EXCHANGE', 'SIMULATOR');

-- CreateEnum
CREATE TYPE "ActorType" AS ENUM ('API_KEY', 'USER', 'DRIVER', 'SYSTEM', 'EXCHANGE');

-- CreateEnum
CREATE TYPE "OutboxStatus" AS ENUM ('PENDING', 'DELIVERED', 'FAILED');

-- CreateEnum
CREATE TYPE "ExchangeEntryKind" AS ENUM ('DEPOSIT', 'SALE', 'PURCHASE', 'COMMISSION', 'ADJUSTMENT');

-- CreateEnum
CREATE TYPE "ExchangeRole" AS ENUM ('SOLD', 'BOUGHT');

-- CreateEnum
CREATE TYPE "CertificateKind" AS ENUM ('ROOT', 'INTERMEDIATE', 'CLIENT');

-- CreateTable
CREATE TABLE "city" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "name_en" TEXT NOT NULL,
    "timezone" TEXT NOT NULL DEFAULT 'Europe/Moscow',
    "currency" TEXT NOT NULL DEFAULT 'RUB',
    "lat" DOUBLE PRECISION NOT NULL,
    "lon" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "city_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "service" (
    "id" SERIAL NOT NULL,
    "city_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "name_en" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "car_class" INTEGER NOT NULL DEFAULT 1,
    "active" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "service_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "queue" (
    "id" SERIAL NOT NULL,
    "service_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "is_main" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "queue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "region" (
    "id" SERIAL NOT NULL,
    "city_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "name_en" TEXT NOT NULL,
    "polygon" JSONB NOT NULL,
    "min_lat" DOUBLE PRECISION NOT NULL,
    "max_lat" DOUBLE PRECISION NOT NULL,
    "min_lon" DOUBLE PRECISION NOT NULL,
    "max_lon" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "region_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "service_region" (
    "service_id" INTEGER NOT NULL,
    "region_id" INTEGER NOT NULL,

    CONSTRAINT "service_region_pkey" PRIMARY KEY ("service_id","region_id")
);

-- CreateTable
CREATE TABLE "street" (
    "id" SERIAL NOT NULL,
    "city_id" INTEGER NOT NULL,
    "kind" "StreetKind" NOT NULL DEFAULT 'STREET',
    "prefix" TEXT NOT NULL DEFAULT '',
    "name" TEXT NOT NULL,
    "full_name" TEXT NOT NULL,
    "search_key" TEXT NOT NULL,
    "lat" DOUBLE PRECISION NOT NULL,
    "lon" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "street_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "street_word" (
    "street_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "word" TEXT NOT NULL,

    CONSTRAINT "street_word_pkey" PRIMARY KEY ("street_id","position")
);

-- CreateTable
CREATE TABLE "house" (
    "id" SERIAL NOT NULL,
    "street_id" INTEGER NOT NULL,
    "number" TEXT NOT NULL,
    "number_key" TEXT NOT NULL,
    "lat" DOUBLE PRECISION NOT NULL,
    "lon" DOUBLE PRECISION NOT NULL,
    "region_id" INTEGER,

    CONSTRAINT "house_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rate" (
    "id" SERIAL NOT NULL,
    "city_id" INTEGER NOT NULL,
    "service_id" INTEGER NOT NULL,
    "queue_id" INTEGER,
    "name" TEXT NOT NULL,
    "is_basic" BOOLEAN NOT NULL DEFAULT false,
    "pick_up" INTEGER NOT NULL DEFAULT 0,
    "min_fare" INTEGER NOT NULL DEFAULT 0,
    "km_cost" INTEGER NOT NULL,
    "km_start" INTEGER NOT NULL DEFAULT 0,
    "minute_cost" INTEGER NOT NULL DEFAULT 0,
    "stand_cost" INTEGER NOT NULL DEFAULT 0,
    "free_stand_time" INTEGER NOT NULL DEFAULT 0,
    "wait_cost" INTEGER NOT NULL DEFAULT 0,
    "free_wait_time" INTEGER NOT NULL DEFAULT 0,
    "round_to" INTEGER NOT NULL DEFAULT 100,
    "start_hour" INTEGER,
    "end_hour" INTEGER,

    CONSTRAINT "rate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "extra" (
    "id" SERIAL NOT NULL,
    "service_id" INTEGER NOT NULL,
    "queue_id" INTEGER,
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "name_en" TEXT NOT NULL,
    "short_name" TEXT NOT NULL DEFAULT '',
    "price" INTEGER NOT NULL,
    "allow_multiple" BOOLEAN NOT NULL DEFAULT false,
    "is_default" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "extra_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "driver" (
    "id" SERIAL NOT NULL,
    "city_id" INTEGER NOT NULL,
    "call_sign" TEXT NOT NULL,
    "first_name" TEXT NOT NULL,
    "last_name" TEXT NOT NULL DEFAULT '',
    "middle_name" TEXT NOT NULL DEFAULT '',
    "phone" TEXT NOT NULL,
    "permit_number" TEXT,
    "state" "DriverState" NOT NULL DEFAULT 'OFFLINE',
    "balance" BIGINT NOT NULL DEFAULT 0,
    "lat" DOUBLE PRECISION,
    "lon" DOUBLE PRECISION,
    "speed" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "bearing" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "position_at" TIMESTAMP(3),
    "region_id" INTEGER,
    "app_key_hash" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "driver_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "car" (
    "id" SERIAL NOT NULL,
    "driver_id" INTEGER NOT NULL,
    "brand" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "color" TEXT NOT NULL,
    "reg_number" TEXT NOT NULL,
    "year" INTEGER,
    "car_class" INTEGER NOT NULL DEFAULT 1,
    "options" INTEGER[] DEFAULT ARRAY[]::INTEGER[],

    CONSTRAINT "car_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "driver_service" (
    "driver_id" INTEGER NOT NULL,
    "service_id" INTEGER NOT NULL,

    CONSTRAINT "driver_service_pkey" PRIMARY KEY ("driver_id","service_id")
);

-- CreateTable
CREATE TABLE "shift" (
    "id" SERIAL NOT NULL,
    "driver_id" INTEGER NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMP(3),

    CONSTRAINT "shift_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "driver_ledger_entry" (
    "id" SERIAL NOT NULL,
    "driver_id" INTEGER NOT NULL,
    "txn_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "balance_after" BIGINT NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "actor_type" "LedgerActorType" NOT NULL,
    "actor_id" TEXT,
    "order_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "driver_ledger_entry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "customer" (
    "id" SERIAL NOT NULL,
    "city_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "contract" TEXT NOT NULL DEFAULT '',
    "balance" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "customer_ledger_entry" (
    "id" SERIAL NOT NULL,
    "customer_id" INTEGER NOT NULL,
    "txn_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "balance_after" BIGINT NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "actor_type" "LedgerActorType" NOT NULL,
    "actor_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customer_ledger_entry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "client" (
    "id" SERIAL NOT NULL,
    "phone" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "bonus" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "client_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "client_bonus_entry" (
    "id" SERIAL NOT NULL,
    "client_id" INTEGER NOT NULL,
    "txn_id" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "bonus_after" INTEGER NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "order_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "client_bonus_entry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "blacklisted_phone" (
    "phone" TEXT NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "blacklisted_phone_pkey" PRIMARY KEY ("phone")
);

-- CreateTable
CREATE TABLE "api_key" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "callback_template" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMP(3),
    "last_used_at" TIMESTAMP(3),

    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "app_user" (
    "id" SERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "roles" "UserRole"[],
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "locale" TEXT NOT NULL DEFAULT 'ru',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "app_user_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_log" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER,
    "action" TEXT NOT NULL,
    "entity" TEXT NOT NULL,
    "entity_id" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "setting" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "setting_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "orders" (
    "id" SERIAL NOT NULL,
    "uuid" UUID NOT NULL,
    "city_id" INTEGER NOT NULL,
    "service_id" INTEGER NOT NULL,
    "queue_id" INTEGER,
    "rate_id" INTEGER,
    "region_id" INTEGER,
    "api_key_id" INTEGER,
    "client_id" INTEGER,
    "customer_id" INTEGER,
    "driver_id" INTEGER,
    "source" "OrderSource" NOT NULL DEFAULT 'API',
    "state" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "phone" TEXT NOT NULL,
    "client_name" TEXT NOT NULL DEFAULT '',
    "street" TEXT NOT NULL,
    "house" TEXT NOT NULL DEFAULT '',
    "apartment" TEXT NOT NULL DEFAULT '',
    "entrance" TEXT NOT NULL DEFAULT '',
    "lat" DOUBLE PRECISION,
    "lon" DOUBLE PRECISION,
    "dst" TEXT NOT NULL DEFAULT '',
    "dst_street" TEXT NOT NULL DEFAULT '',
    "dst_house" TEXT NOT NULL DEFAULT '',
    "dst_lat" DOUBLE PRECISION,
    "dst_lon" DOUBLE PRECISION,
    "way_points" JSONB NOT NULL DEFAULT '[]',
    "comment" TEXT NOT NULL DEFAULT '',
    "system_message" TEXT NOT NULL DEFAULT '',
    "amount" INTEGER,
    "distance" INTEGER,
    "route_time" INTEGER,
    "price_breakdown" JSONB,
    "price_token" TEXT,
    "need_notify" BOOLEAN NOT NULL DEFAULT true,
    "pre_order_time" TIMESTAMP(3),
    "start_time" TIMESTAMP(3),
    "arrival_at" TIMESTAMP(3),
    "cancel_reason" TEXT NOT NULL DEFAULT '',
    "version" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_extra" (
    "order_id" INTEGER NOT NULL,
    "extra_id" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,
    "price" INTEGER NOT NULL,

    CONSTRAINT "order_extra_pkey" PRIMARY KEY ("order_id","extra_id")
);

-- CreateTable
CREATE TABLE "order_status_change" (
    "id" SERIAL NOT NULL,
    "order_id" INTEGER NOT NULL,
    "from_state" TEXT,
    "to_state" TEXT NOT NULL,
    "to_code" INTEGER NOT NULL,
    "actor_type" "ActorType" NOT NULL,
    "actor_id" TEXT,
    "reason" TEXT NOT NULL DEFAULT '',
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_status_change_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_message" (
    "id" SERIAL NOT NULL,
    "delivery_id" UUID NOT NULL,
    "channel" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "ordering_key" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "OutboxStatus" NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMP(3),

    CONSTRAINT "outbox_message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "delivery_attempt" (
    "id" SERIAL NOT NULL,
    "message_id" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "http_status" INTEGER,
    "error" TEXT,
    "duration_ms" INTEGER NOT NULL,

    CONSTRAINT "delivery_attempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inbound_notification" (
    "delivery_id" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbound_notification_pkey" PRIMARY KEY ("delivery_id")
);

-- CreateTable
CREATE TABLE "exchange_participant" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "details" TEXT NOT NULL DEFAULT '',
    "email" TEXT NOT NULL DEFAULT '',
    "phone" TEXT NOT NULL DEFAULT '',
    "country_en" TEXT NOT NULL DEFAULT '',
    "country_ru" TEXT NOT NULL DEFAULT '',
    "location_en" TEXT NOT NULL DEFAULT '',
    "location_ru" TEXT NOT NULL DEFAULT '',
    "lat" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "lon" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "currency" TEXT NOT NULL DEFAULT 'RUB',
    "commission_bp" INTEGER,
    "balance" BIGINT NOT NULL DEFAULT 0,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "exchange_participant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "exchange_server" (
    "id" SERIAL NOT NULL,
    "participant_id" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "vendor" TEXT NOT NULL DEFAULT '',
    "last_check_at" TIMESTAMP(3),
    "last_check_ok" BOOLEAN,

    CONSTRAINT "exchange_server_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "exchange_client_key" (
    "id" SERIAL NOT NULL,
    "participant_id" INTEGER NOT NULL,
    "prefix" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "exchange_client_key_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "exchange_session" (
    "id" SERIAL NOT NULL,
    "participant_id" INTEGER NOT NULL,
    "server_id" INTEGER NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "exchange_session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "exchange_service" (
    "id" SERIAL NOT NULL,
    "participant_id" INTEGER NOT NULL,
    "external_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "car_class" INTEGER NOT NULL DEFAULT 1,
    "executes" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "exchange_service_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "exchange_order" (
    "id" SERIAL NOT NULL,
    "seller_id" INTEGER NOT NULL,
    "source_order_id" TEXT NOT NULL,
    "attributes" JSONB NOT NULL,
    "fare" INTEGER NOT NULL DEFAULT 0,
    "car_class" INTEGER NOT NULL DEFAULT 1,
    "state" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "executor_id" INTEGER,
    "executor_order_id" TEXT,
    "executor" JSONB,
    "arrival_minutes" INTEGER,
    "completion" JSONB,
    "cancel_reason" TEXT NOT NULL DEFAULT '',
    "taken_at" TIMESTAMP(3),
    "completed_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "exchange_order_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "exchange_offer" (
    "exchange_order_id" INTEGER NOT NULL,
    "participant_id" INTEGER NOT NULL,
    "sent_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "exchange_offer_pkey" PRIMARY KEY ("exchange_order_id","participant_id")
);

-- CreateTable
CREATE TABLE "exchange_status_change" (
    "id" SERIAL NOT NULL,
    "exchange_order_id" INTEGER NOT NULL,
    "from_state" TEXT,
    "to_state" TEXT NOT NULL,
    "to_code" INTEGER NOT NULL,
    "participant_id" INTEGER,
    "reason" TEXT NOT NULL DEFAULT '',
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "exchange_status_change_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "exchange_ledger_entry" (
    "id" SERIAL NOT NULL,
    "participant_id" INTEGER NOT NULL,
    "txn_id" TEXT NOT NULL,
    "kind" "ExchangeEntryKind" NOT NULL,
    "amount" BIGINT NOT NULL,
    "balance_after" BIGINT NOT NULL,
    "exchange_order_id" INTEGER,
    "reason" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "exchange_ledger_entry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "exchange_driver" (
    "id" TEXT NOT NULL,
    "participant_id" INTEGER NOT NULL,
    "call_sign" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "phone" TEXT NOT NULL DEFAULT '',
    "registration_number" TEXT NOT NULL DEFAULT '',
    "brand" TEXT NOT NULL DEFAULT '',
    "model" TEXT NOT NULL DEFAULT '',
    "model_code" TEXT NOT NULL DEFAULT '',
    "color" TEXT NOT NULL DEFAULT '',
    "color_code" TEXT NOT NULL DEFAULT '',
    "carage" TEXT NOT NULL DEFAULT '',
    "connect_by" TEXT NOT NULL DEFAULT 'api',
    "car_class" INTEGER NOT NULL DEFAULT 1,
    "options" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "lat" DOUBLE PRECISION,
    "lon" DOUBLE PRECISION,
    "speed" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "bearing" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "status" INTEGER,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "exchange_driver_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "car_class" (
    "id" TEXT NOT NULL,
    "name_en" TEXT NOT NULL,
    "name_ru" TEXT NOT NULL,
    "cars" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "car_class_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "car_option" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "access" TEXT NOT NULL,

    CONSTRAINT "car_option_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "exchange_link" (
    "order_id" INTEGER NOT NULL,
    "role" "ExchangeRole" NOT NULL,
    "exchange_order_id" TEXT NOT NULL,
    "remote_state" INTEGER,
    "executor" JSONB,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "exchange_link_pkey" PRIMARY KEY ("order_id")
);

-- CreateTable
CREATE TABLE "issued_certificate" (
    "id" SERIAL NOT NULL,
    "kind" "CertificateKind" NOT NULL,
    "serial" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "issuer_serial" TEXT,
    "participant_id" INTEGER,
    "cert_pem" TEXT NOT NULL,
    "key_encrypted" TEXT,
    "not_before" TIMESTAMP(3) NOT NULL,
    "not_after" TIMESTAMP(3) NOT NULL,
    "revoked_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "issued_certificate_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "service_city_id_idx" ON "service"("city_id");

-- CreateIndex
CREATE INDEX "queue_service_id_idx" ON "queue"("service_id");

-- CreateIndex
CREATE INDEX "region_city_id_idx" ON "region"("city_id");

-- CreateIndex
CREATE INDEX "service_region_region_id_idx" ON "service_region"("region_id");

-- CreateIndex
CREATE UNIQUE INDEX "street_city_id_search_key_key" ON "street"("city_id", "search_key");

-- CreateIndex
CREATE INDEX "street_word_word_idx" ON "street_word"("word" text_pattern_ops);

-- CreateIndex
CREATE UNIQUE INDEX "house_street_id_number_key_key" ON "house"("street_id", "number_key");

-- CreateIndex
CREATE INDEX "rate_city_id_idx" ON "rate"("city_id");

-- CreateIndex
CREATE INDEX "rate_service_id_idx" ON "rate"("service_id");

-- CreateIndex
CREATE INDEX "extra_service_id_idx" ON "extra"("service_id");

-- CreateIndex
CREATE UNIQUE INDEX "driver_call_sign_key" ON "driver"("call_sign");

-- CreateIndex
CREATE UNIQUE INDEX "driver_app_key_hash_key" ON "driver"("app_key_hash");

-- CreateIndex
CREATE INDEX "driver_city_id_state_idx" ON "driver"("city_id", "state");

-- CreateIndex
CREATE INDEX "driver_region_id_state_idx" ON "driver"("region_id", "state");

-- CreateIndex
CREATE UNIQUE INDEX "car_driver_id_key" ON "car"("driver_id");

-- CreateIndex
CREATE INDEX "driver_service_service_id_idx" ON "driver_service"("service_id");

-- CreateIndex
CREATE INDEX "shift_driver_id_started_at_idx" ON "shift"("driver_id", "started_at");

-- CreateIndex
CREATE UNIQUE INDEX "driver_ledger_entry_txn_id_key" ON "driver_ledger_entry"("txn_id");

-- CreateIndex
CREATE INDEX "driver_ledger_entry_driver_id_created_at_idx" ON "driver_ledger_entry"("driver_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "customer_ledger_entry_txn_id_key" ON "customer_ledger_entry"("txn_id");

-- CreateIndex
CREATE INDEX "customer_ledger_entry_customer_id_created_at_idx" ON "customer_ledger_entry"("customer_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "client_phone_key" ON "client"("phone");

-- CreateIndex
CREATE UNIQUE INDEX "client_bonus_entry_txn_id_key" ON "client_bonus_entry"("txn_id");

-- CreateIndex
CREATE INDEX "client_bonus_entry_client_id_created_at_idx" ON "client_bonus_entry"("client_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "api_key_key_hash_key" ON "api_key"("key_hash");

-- CreateIndex
CREATE UNIQUE INDEX "app_user_email_key" ON "app_user"("email");

-- CreateIndex
CREATE INDEX "audit_log_at_idx" ON "audit_log"("at");

-- CreateIndex
CREATE INDEX "audit_log_entity_entity_id_idx" ON "audit_log"("entity", "entity_id");

-- CreateIndex
CREATE UNIQUE INDEX "orders_uuid_key" ON "orders"("uuid");

-- CreateIndex
CREATE UNIQUE INDEX "orders_price_token_key" ON "orders"("price_token");

-- CreateIndex
CREATE INDEX "orders_status_code_created_at_idx" ON "orders"("status_code", "created_at");

-- CreateIndex
CREATE INDEX "orders_state_created_at_idx" ON "orders"("state", "created_at");

-- CreateIndex
CREATE INDEX "orders_phone_created_at_idx" ON "orders"("phone", "created_at");

-- CreateIndex
CREATE INDEX "orders_driver_id_status_code_idx" ON "orders"("driver_id", "status_code");

-- CreateIndex
CREATE INDEX "orders_region_id_status_code_idx" ON "orders"("region_id", "status_code");

-- CreateIndex
CREATE INDEX "orders_created_at_idx" ON "orders"("created_at");

-- CreateIndex
CREATE INDEX "order_status_change_order_id_id_idx" ON "order_status_change"("order_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "outbox_message_delivery_id_key" ON "outbox_message"("delivery_id");

-- CreateIndex
CREATE INDEX "outbox_message_status_next_attempt_at_idx" ON "outbox_message"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "outbox_message_ordering_key_id_idx" ON "outbox_message"("ordering_key", "id");

-- CreateIndex
CREATE INDEX "outbox_message_channel_created_at_idx" ON "outbox_message"("channel", "created_at");

-- CreateIndex
CREATE INDEX "delivery_attempt_message_id_idx" ON "delivery_attempt"("message_id");

-- CreateIndex
CREATE INDEX "exchange_server_participant_id_idx" ON "exchange_server"("participant_id");

-- CreateIndex
CREATE UNIQUE INDEX "exchange_client_key_key_hash_key" ON "exchange_client_key"("key_hash");

-- CreateIndex
CREATE UNIQUE INDEX "exchange_session_token_hash_key" ON "exchange_session"("token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "exchange_service_participant_id_external_id_key" ON "exchange_service"("participant_id", "external_id");

-- CreateIndex
CREATE INDEX "exchange_order_executor_id_idx" ON "exchange_order"("executor_id");

-- CreateIndex
CREATE INDEX "exchange_order_status_code_created_at_idx" ON "exchange_order"("status_code", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "exchange_order_seller_id_source_order_id_key" ON "exchange_order"("seller_id", "source_order_id");

-- CreateIndex
CREATE INDEX "exchange_offer_participant_id_idx" ON "exchange_offer"("participant_id");

-- CreateIndex
CREATE INDEX "exchange_status_change_exchange_order_id_id_idx" ON "exchange_status_change"("exchange_order_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "exchange_ledger_entry_txn_id_key" ON "exchange_ledger_entry"("txn_id");

-- CreateIndex
CREATE INDEX "exchange_ledger_entry_participant_id_created_at_idx" ON "exchange_ledger_entry"("participant_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "exchange_driver_participant_id_call_sign_key" ON "exchange_driver"("participant_id", "call_sign");

-- CreateIndex
CREATE UNIQUE INDEX "exchange_link_exchange_order_id_key" ON "exchange_link"("exchange_order_id");

-- CreateIndex
CREATE UNIQUE INDEX "issued_certificate_serial_key" ON "issued_certificate"("serial");

-- CreateIndex
CREATE INDEX "issued_certificate_kind_idx" ON "issued_certificate"("kind");

-- AddForeignKey
ALTER TABLE "service" ADD CONSTRAINT "service_city_id_fkey" FOREIGN KEY ("city_id") REFERENCES "city"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "queue" ADD CONSTRAINT "queue_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "service"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "region" ADD CONSTRAINT "region_city_id_fkey" FOREIGN KEY ("city_id") REFERENCES "city"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "service_region" ADD CONSTRAINT "service_region_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "service"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "service_region" ADD CONSTRAINT "service_region_region_id_fkey" FOREIGN KEY ("region_id") REFERENCES "region"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "street" ADD CONSTRAINT "street_city_id_fkey" FOREIGN KEY ("city_id") REFERENCES "city"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "street_word" ADD CONSTRAINT "street_word_street_id_fkey" FOREIGN KEY ("street_id") REFERENCES "street"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "house" ADD CONSTRAINT "house_street_id_fkey" FOREIGN KEY ("street_id") REFERENCES "street"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "house" ADD CONSTRAINT "house_region_id_fkey" FOREIGN KEY ("region_id") REFERENCES "region"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rate" ADD CONSTRAINT "rate_city_id_fkey" FOREIGN KEY ("city_id") REFERENCES "city"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rate" ADD CONSTRAINT "rate_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "service"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rate" ADD CONSTRAINT "rate_queue_id_fkey" FOREIGN KEY ("queue_id") REFERENCES "queue"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "extra" ADD CONSTRAINT "extra_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "service"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "extra" ADD CONSTRAINT "extra_queue_id_fkey" FOREIGN KEY ("queue_id") REFERENCES "queue"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "driver" ADD CONSTRAINT "driver_city_id_fkey" FOREIGN KEY ("city_id") REFERENCES "city"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "driver" ADD CONSTRAINT "driver_region_id_fkey" FOREIGN KEY ("region_id") REFERENCES "region"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "car" ADD CONSTRAINT "car_driver_id_fkey" FOREIGN KEY ("driver_id") REFERENCES "driver"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "driver_service" ADD CONSTRAINT "driver_service_driver_id_fkey" FOREIGN KEY ("driver_id") REFERENCES "driver"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "driver_service" ADD CONSTRAINT "driver_service_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "service"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shift" ADD CONSTRAINT "shift_driver_id_fkey" FOREIGN KEY ("driver_id") REFERENCES "driver"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "driver_ledger_entry" ADD CONSTRAINT "driver_ledger_entry_driver_id_fkey" FOREIGN KEY ("driver_id") REFERENCES "driver"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "customer" ADD CONSTRAINT "customer_city_id_fkey" FOREIGN KEY ("city_id") REFERENCES "city"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "customer_ledger_entry" ADD CONSTRAINT "customer_ledger_entry_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customer"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "client_bonus_entry" ADD CONSTRAINT "client_bonus_entry_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "client"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "app_user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_city_id_fkey" FOREIGN KEY ("city_id") REFERENCES "city"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "service"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_queue_id_fkey" FOREIGN KEY ("queue_id") REFERENCES "queue"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_rate_id_fkey" FOREIGN KEY ("rate_id") REFERENCES "rate"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_region_id_fkey" FOREIGN KEY ("region_id") REFERENCES "region"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_key"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "client"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customer"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_driver_id_fkey" FOREIGN KEY ("driver_id") REFERENCES "driver"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_extra" ADD CONSTRAINT "order_extra_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_extra" ADD CONSTRAINT "order_extra_extra_id_fkey" FOREIGN KEY ("extra_id") REFERENCES "extra"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_status_change" ADD CONSTRAINT "order_status_change_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "delivery_attempt" ADD CONSTRAINT "delivery_attempt_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "outbox_message"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exchange_server" ADD CONSTRAINT "exchange_server_participant_id_fkey" FOREIGN KEY ("participant_id") REFERENCES "exchange_participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exchange_client_key" ADD CONSTRAINT "exchange_client_key_participant_id_fkey" FOREIGN KEY ("participant_id") REFERENCES "exchange_participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exchange_session" ADD CONSTRAINT "exchange_session_participant_id_fkey" FOREIGN KEY ("participant_id") REFERENCES "exchange_participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exchange_session" ADD CONSTRAINT "exchange_session_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "exchange_server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exchange_service" ADD CONSTRAINT "exchange_service_participant_id_fkey" FOREIGN KEY ("participant_id") REFERENCES "exchange_participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exchange_order" ADD CONSTRAINT "exchange_order_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "exchange_participant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exchange_order" ADD CONSTRAINT "exchange_order_executor_id_fkey" FOREIGN KEY ("executor_id") REFERENCES "exchange_participant"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exchange_offer" ADD CONSTRAINT "exchange_offer_exchange_order_id_fkey" FOREIGN KEY ("exchange_order_id") REFERENCES "exchange_order"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exchange_offer" ADD CONSTRAINT "exchange_offer_participant_id_fkey" FOREIGN KEY ("participant_id") REFERENCES "exchange_participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exchange_status_change" ADD CONSTRAINT "exchange_status_change_exchange_order_id_fkey" FOREIGN KEY ("exchange_order_id") REFERENCES "exchange_order"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exchange_ledger_entry" ADD CONSTRAINT "exchange_ledger_entry_participant_id_fkey" FOREIGN KEY ("participant_id") REFERENCES "exchange_participant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exchange_ledger_entry" ADD CONSTRAINT "exchange_ledger_entry_exchange_order_id_fkey" FOREIGN KEY ("exchange_order_id") REFERENCES "exchange_order"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exchange_driver" ADD CONSTRAINT "exchange_driver_participant_id_fkey" FOREIGN KEY ("participant_id") REFERENCES "exchange_participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exchange_link" ADD CONSTRAINT "exchange_link_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "issued_certificate" ADD CONSTRAINT "issued_certificate_participant_id_fkey" FOREIGN KEY ("participant_id") REFERENCES "exchange_participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Checks Prisma cannot express: they keep bad data out whatever writes it.
ALTER TABLE "rate" ADD CONSTRAINT "rate_hours_check" CHECK (("start_hour" IS NULL OR "start_hour" BETWEEN 0 AND 23) AND ("end_hour" IS NULL OR "end_hour" BETWEEN 0 AND 24));
ALTER TABLE "rate" ADD CONSTRAINT "rate_costs_check" CHECK ("km_cost" >= 0 AND "km_start" >= 0 AND "min_fare" >= 0 AND "pick_up" >= 0 AND "stand_cost" >= 0 AND "wait_cost" >= 0 AND "minute_cost" >= 0 AND "round_to" > 0);
ALTER TABLE "extra" ADD CONSTRAINT "extra_price_check" CHECK ("price" >= 0);
ALTER TABLE "order_extra" ADD CONSTRAINT "order_extra_count_check" CHECK ("count" > 0);
ALTER TABLE "orders" ADD CONSTRAINT "orders_amount_check" CHECK ("amount" IS NULL OR "amount" >= 0);
ALTER TABLE "driver_ledger_entry" ADD CONSTRAINT "driver_ledger_amount_check" CHECK ("amount" <> 0);
ALTER TABLE "customer_ledger_entry" ADD CONSTRAINT "customer_ledger_amount_check" CHECK ("amount" <> 0);
ALTER TABLE "exchange_ledger_entry" ADD CONSTRAINT "exchange_ledger_amount_check" CHECK ("amount" <> 0);
ALTER TABLE "exchange_participant" ADD CONSTRAINT "exchange_participant_commission_check" CHECK ("commission_bp" IS NULL OR "commission_bp" BETWEEN 0 AND 10000);
ALTER TABLE "client" ADD CONSTRAINT "client_bonus_check" CHECK ("bonus" >= 0);
ALTER TABLE "outbox_message" ADD CONSTRAINT "outbox_attempts_check" CHECK ("attempts" >= 0);
