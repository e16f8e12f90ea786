-- AlterEnum
ALTER TYPE "UserRole" ADD VALUE 'MANAGER';

-- CreateIndex
CREATE INDEX "driver_ledger_entry_kind_created_at_idx" ON "driver_ledger_entry"("kind", "created_at");

-- CreateIndex
CREATE INDEX "client_bonus_entry_created_at_idx" ON "client_bonus_entry"("created_at");

-- CreateIndex
CREATE INDEX "orders_city_id_created_at_idx" ON "orders"("city_id", "created_at");

-- CreateIndex
CREATE INDEX "order_status_change_to_state_at_idx" ON "order_status_change"("to_state", "at");

-- CreateIndex
CREATE INDEX "exchange_ledger_entry_created_at_idx" ON "exchange_ledger_entry"("created_at");

-- CreateIndex
CREATE INDEX "dispatch_offer_sent_at_idx" ON "dispatch_offer"("sent_at");

