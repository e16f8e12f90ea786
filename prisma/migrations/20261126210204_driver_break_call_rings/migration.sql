-- CreateTable
CREATE TABLE "driver_break" (
    "driver_id" INTEGER NOT NULL,
    "since" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "driver_break_pkey" PRIMARY KEY ("driver_id")
);

-- CreateTable
CREATE TABLE "phone_call_ring" (
    "call_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "extension" TEXT NOT NULL,

    CONSTRAINT "phone_call_ring_pkey" PRIMARY KEY ("call_id","user_id")
);

-- CreateIndex
CREATE INDEX "phone_call_ring_user_id_idx" ON "phone_call_ring"("user_id");

-- AddForeignKey
ALTER TABLE "driver_break" ADD CONSTRAINT "driver_break_driver_id_fkey" FOREIGN KEY ("driver_id") REFERENCES "driver"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "phone_call_ring" ADD CONSTRAINT "phone_call_ring_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "phone_call"("id") ON DELETE CASCADE ON UPDATE CASCADE;

