-- CreateTable
CREATE TABLE "trip_rating" (
    "id" SERIAL NOT NULL,
    "order_id" INTEGER NOT NULL,
    "driver_id" INTEGER NOT NULL,
    "stars" INTEGER NOT NULL,
    "comment" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "trip_rating_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "trip_rating_order_id_key" ON "trip_rating"("order_id");

-- CreateIndex
CREATE INDEX "trip_rating_driver_id_created_at_idx" ON "trip_rating"("driver_id", "created_at");

-- AddForeignKey
ALTER TABLE "trip_rating" ADD CONSTRAINT "trip_rating_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trip_rating" ADD CONSTRAINT "trip_rating_driver_id_fkey" FOREIGN KEY ("driver_id") REFERENCES "driver"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Stars from 1 to 5, whatever writes the row (the service checks first; the database holds it).
ALTER TABLE "trip_rating" ADD CONSTRAINT "trip_rating_stars_check" CHECK ("stars" BETWEEN 1 AND 5);
