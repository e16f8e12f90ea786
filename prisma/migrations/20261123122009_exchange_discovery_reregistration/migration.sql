-- DropIndex
DROP INDEX "exchange_order_seller_id_source_order_id_key";

-- AlterTable
ALTER TABLE "exchange_server" ADD COLUMN     "services_at" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "exchange_service" ALTER COLUMN "car_class" DROP NOT NULL,
ALTER COLUMN "car_class" DROP DEFAULT;

-- AlterTable
ALTER TABLE "exchange_order" ADD COLUMN     "registration" INTEGER NOT NULL DEFAULT 1;

-- CreateIndex
CREATE UNIQUE INDEX "exchange_order_seller_id_source_order_id_registration_key" ON "exchange_order"("seller_id", "source_order_id", "registration");

