-- CreateEnum
CREATE TYPE "RoadClass" AS ENUM ('MOTORWAY', 'TRUNK', 'PRIMARY', 'SECONDARY', 'TERTIARY', 'RESIDENTIAL', 'SERVICE');

-- CreateTable
CREATE TABLE "road_node" (
    "id" SERIAL NOT NULL,
    "city_id" INTEGER NOT NULL,
    "lat" DOUBLE PRECISION NOT NULL,
    "lon" DOUBLE PRECISION NOT NULL,
    "osm_id" BIGINT,

    CONSTRAINT "road_node_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "road_segment" (
    "id" SERIAL NOT NULL,
    "city_id" INTEGER NOT NULL,
    "from_node_id" INTEGER NOT NULL,
    "to_node_id" INTEGER NOT NULL,
    "length" DOUBLE PRECISION NOT NULL,
    "road_class" "RoadClass" NOT NULL,
    "oneway" BOOLEAN NOT NULL DEFAULT false,
    "name" TEXT NOT NULL DEFAULT '',
    "street_id" INTEGER,
    "shape" DOUBLE PRECISION[] DEFAULT ARRAY[]::DOUBLE PRECISION[],
    "osm_way_id" BIGINT,
    "osm_part" INTEGER,

    CONSTRAINT "road_segment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "road_speed" (
    "city_id" INTEGER NOT NULL,
    "road_class" "RoadClass" NOT NULL,
    "hour" INTEGER NOT NULL,
    "kmh" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "road_speed_pkey" PRIMARY KEY ("city_id","road_class","hour")
);

-- CreateTable
CREATE TABLE "osm_import" (
    "id" SERIAL NOT NULL,
    "city_id" INTEGER NOT NULL,
    "file" TEXT NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),
    "nodes" INTEGER NOT NULL DEFAULT 0,
    "segments" INTEGER NOT NULL DEFAULT 0,
    "streets" INTEGER NOT NULL DEFAULT 0,
    "houses" INTEGER NOT NULL DEFAULT 0,
    "places" INTEGER NOT NULL DEFAULT 0,
    "seconds" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "peak_memory_mb" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "osm_import_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "road_node_city_id_osm_id_key" ON "road_node"("city_id", "osm_id");

-- CreateIndex
CREATE INDEX "road_segment_city_id_idx" ON "road_segment"("city_id");

-- CreateIndex
CREATE INDEX "road_segment_street_id_idx" ON "road_segment"("street_id");

-- CreateIndex
CREATE UNIQUE INDEX "road_segment_city_id_osm_way_id_osm_part_key" ON "road_segment"("city_id", "osm_way_id", "osm_part");

-- CreateIndex
CREATE INDEX "osm_import_city_id_idx" ON "osm_import"("city_id");

-- AddForeignKey
ALTER TABLE "road_node" ADD CONSTRAINT "road_node_city_id_fkey" FOREIGN KEY ("city_id") REFERENCES "city"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "road_segment" ADD CONSTRAINT "road_segment_city_id_fkey" FOREIGN KEY ("city_id") REFERENCES "city"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "road_segment" ADD CONSTRAINT "road_segment_from_node_id_fkey" FOREIGN KEY ("from_node_id") REFERENCES "road_node"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "road_segment" ADD CONSTRAINT "road_segment_to_node_id_fkey" FOREIGN KEY ("to_node_id") REFERENCES "road_node"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "road_segment" ADD CONSTRAINT "road_segment_street_id_fkey" FOREIGN KEY ("street_id") REFERENCES "street"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "road_speed" ADD CONSTRAINT "road_speed_city_id_fkey" FOREIGN KEY ("city_id") REFERENCES "city"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "osm_import" ADD CONSTRAINT "osm_import_city_id_fkey" FOREIGN KEY ("city_id") REFERENCES "city"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Road network changes are announced to every instance (NOTIFY taxi_road):
-- each process keeps the graphs of its cities in memory
-- (server/routing/graph-cache.ts) and reloads them when told. Statement
-- triggers, as for the streets: one notification per statement, merged per
-- transaction by PostgreSQL.
CREATE FUNCTION "taxi_notify_road"() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('taxi_road', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

CREATE TRIGGER "road_node_notify"
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "road_node"
  FOR EACH STATEMENT EXECUTE FUNCTION "taxi_notify_road"();

CREATE TRIGGER "road_segment_notify"
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "road_segment"
  FOR EACH STATEMENT EXECUTE FUNCTION "taxi_notify_road"();

CREATE TRIGGER "road_speed_notify"
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "road_speed"
  FOR EACH STATEMENT EXECUTE FUNCTION "taxi_notify_road"();
