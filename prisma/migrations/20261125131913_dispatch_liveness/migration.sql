-- AlterTable
ALTER TABLE "driver" ADD COLUMN     "app_seen_at" TIMESTAMP(3),
ADD COLUMN     "away_lat" DOUBLE PRECISION,
ADD COLUMN     "away_lon" DOUBLE PRECISION,
ADD COLUMN     "away_since" TIMESTAMP(3),
ADD COLUMN     "missed_offers" INTEGER NOT NULL DEFAULT 0;

