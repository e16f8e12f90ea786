-- CreateTable
CREATE TABLE "driver_break" (
    "driver_id" INTEGER NOT NULL,
    "since" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "driver_break_pkey" PRIMARY KEY ("driver_id")
);

-- AddForeignKey
ALTER TABLE "driver_break" ADD CONSTRAINT "driver_break_driver_id_fkey" FOREIGN KEY ("driver_id") REFERENCES "driver"("id") ON DELETE CASCADE ON UPDATE CASCADE;

