-- CreateEnum
CREATE TYPE "DriverEntryKind" AS ENUM ('PAYMENT', 'COMMISSION');

-- DropIndex
DROP INDEX "driver_ledger_entry_txn_id_key";

-- AlterTable
ALTER TABLE "driver_ledger_entry" ADD COLUMN     "kind" "DriverEntryKind" NOT NULL DEFAULT 'PAYMENT';

-- The system's commissions so far: the id it derives from the order, with
-- the order set (a client's payment under such an id has no order and stays
-- a payment).
UPDATE "driver_ledger_entry" SET "kind" = 'COMMISSION'
 WHERE "order_id" IS NOT NULL AND "txn_id" = 'commission:order:' || "order_id";

-- CreateIndex
CREATE UNIQUE INDEX "driver_ledger_entry_kind_txn_id_key" ON "driver_ledger_entry"("kind", "txn_id");

