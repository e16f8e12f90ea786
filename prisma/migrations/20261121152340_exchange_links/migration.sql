-- AlterTable
ALTER TABLE "exchange_offer" ADD COLUMN     "withdrawn_at" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "exchange_link" ADD COLUMN     "completion" JSONB,
ADD COLUMN     "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "note" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "phase" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "source_id" TEXT,
ALTER COLUMN "exchange_order_id" DROP NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "exchange_link_source_id_key" ON "exchange_link"("source_id");

-- CreateIndex
CREATE INDEX "exchange_link_role_phase_idx" ON "exchange_link"("role", "phase");

