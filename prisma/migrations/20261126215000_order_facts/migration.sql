-- CreateTable
CREATE TABLE "order_fact" (
    "order_id" INTEGER NOT NULL,
    "city_id" INTEGER NOT NULL,
    "service_id" INTEGER NOT NULL,
    "region_id" INTEGER,
    "driver_id" INTEGER,
    "api_key_id" INTEGER,
    "source" "OrderSource" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    "preorder" BOOLEAN NOT NULL,
    "state" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "amount" INTEGER,
    "offered_at" TIMESTAMP(3),
    "accepted_at" TIMESTAMP(3),
    "at_pickup_at" TIMESTAMP(3),
    "completed_at" TIMESTAMP(3),
    "offers" INTEGER NOT NULL DEFAULT 0,
    "first_source" TEXT,
    "first_offer_at" TIMESTAMP(3),
    "first_offer_id" INTEGER,
    "last_change_id" INTEGER,
    "last_actor" TEXT,
    "last_reason" TEXT,
    "bought" BOOLEAN NOT NULL DEFAULT false,
    "sold" BOOLEAN NOT NULL DEFAULT false,
    "outcome" TEXT NOT NULL DEFAULT 'open',
    "offer_ms" BIGINT,
    "accept_ms" BIGINT,
    "pickup_ms" BIGINT,

    CONSTRAINT "order_fact_pkey" PRIMARY KEY ("order_id")
);

-- CreateIndex
CREATE INDEX "order_fact_city_id_created_at_idx" ON "order_fact"("city_id", "created_at");

-- CreateIndex
CREATE INDEX "order_fact_created_at_idx" ON "order_fact"("created_at");

-- CreateIndex
CREATE INDEX "order_fact_driver_id_created_at_idx" ON "order_fact"("driver_id", "created_at");

-- CreateIndex
CREATE INDEX "order_fact_completed_at_idx" ON "order_fact"("completed_at");

-- AddForeignKey
ALTER TABLE "order_fact" ADD CONSTRAINT "order_fact_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The facts as read from the raw tables: the reference the triggers below keep
-- order_fact equal to (the migration's backfill, the benchmark's fill and the
-- consistency test read it too).
CREATE VIEW "order_fact_source" AS
SELECT o.id AS order_id, o.city_id, o.service_id, o.region_id, o.driver_id, o.api_key_id, o.source, o.created_at,
       o.pre_order_time IS NOT NULL AS preorder, o.state, o.status_code, o.amount,
       LEAST(f.sent_at, h.moved_offered_at) AS offered_at, h.accepted_at, h.at_pickup_at, h.completed_at,
       COALESCE(f.offers, 0) AS offers, f.first_source, f.sent_at AS first_offer_at, f.first_offer_id,
       last.id AS last_change_id, last.actor_type AS last_actor, last.reason AS last_reason,
       COALESCE(x.role = 'BOUGHT', FALSE) AS bought, COALESCE(x.role = 'SOLD', FALSE) AS sold
  FROM orders o
  LEFT JOIN (
    SELECT c.order_id,
           min(c.at) FILTER (WHERE c.to_state IN ('SENT_TO_DRIVER', 'ORDER_ON_RADIO')) AS moved_offered_at,
           min(c.at) FILTER (WHERE c.to_state IN ('CONFIRMED', 'BOUND', 'PREORDER_ATTACHED')) AS accepted_at,
           min(c.at) FILTER (WHERE c.to_state = 'AWAITING_CLIENT') AS at_pickup_at,
           min(c.at) FILTER (WHERE c.to_state = 'DONE_SUCCESSFUL') AS completed_at
      FROM order_status_change c GROUP BY c.order_id
  ) h ON h.order_id = o.id
  LEFT JOIN (
    SELECT d.order_id, min(d.sent_at) AS sent_at, count(*)::int AS offers,
           (array_agg(d.source ORDER BY d.sent_at, d.id))[1] AS first_source,
           (array_agg(d.id ORDER BY d.sent_at, d.id))[1] AS first_offer_id
      FROM dispatch_offer d GROUP BY d.order_id
  ) f ON f.order_id = o.id
  LEFT JOIN exchange_link x ON x.order_id = o.id
  LEFT JOIN LATERAL (
    SELECT c.id, c.actor_type::text AS actor_type, c.reason FROM order_status_change c
     WHERE c.order_id = o.id ORDER BY c.id DESC LIMIT 1
  ) last ON TRUE;

-- The outcome of a fact row: completed; lost (finished with no driver ever
-- taking it, as "no cars" or by the system); cancelled (any other end); open.
-- And its waits from creation in whole milliseconds (exact: the timestamps
-- have millisecond precision), so that a month's means and percentiles need
-- no interval arithmetic per row.
CREATE FUNCTION "order_fact_outcome"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.outcome := CASE
    WHEN NEW.state = 'DONE_SUCCESSFUL' THEN 'completed'
    WHEN NEW.status_code >= 90 AND NEW.accepted_at IS NULL AND (NEW.state = 'DONE_NO_CARS' OR NEW.last_actor = 'SYSTEM') THEN 'lost'
    WHEN NEW.status_code >= 90 THEN 'cancelled'
    ELSE 'open' END;
  NEW.offer_ms := round(extract(epoch FROM NEW.offered_at - NEW.created_at) * 1000)::bigint;
  NEW.accept_ms := round(extract(epoch FROM NEW.accepted_at - NEW.created_at) * 1000)::bigint;
  NEW.pickup_ms := round(extract(epoch FROM NEW.at_pickup_at - NEW.created_at) * 1000)::bigint;
  RETURN NEW;
END $$;
CREATE TRIGGER "order_fact_outcome" BEFORE INSERT OR UPDATE ON "order_fact" FOR EACH ROW EXECUTE FUNCTION "order_fact_outcome"();

-- One order's facts recomputed from the raw tables (a deleted offer or move, a
-- changed link: rare, so the exact way rather than an incremental one).
CREATE FUNCTION "order_fact_refresh"(p_order_id integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_fact WHERE order_id = p_order_id;
  INSERT INTO order_fact (order_id, city_id, service_id, region_id, driver_id, api_key_id, source, created_at, preorder, state, status_code, amount,
                          offered_at, accepted_at, at_pickup_at, completed_at, offers, first_source, first_offer_at, first_offer_id,
                          last_change_id, last_actor, last_reason, bought, sold)
  SELECT order_id, city_id, service_id, region_id, driver_id, api_key_id, source, created_at, preorder, state, status_code, amount,
         offered_at, accepted_at, at_pickup_at, completed_at, offers, first_source, first_offer_at, first_offer_id,
         last_change_id, last_actor, last_reason, bought, sold
    FROM order_fact_source WHERE order_id = p_order_id;
END $$;

-- The order's own columns, as it is created or changed.
CREATE FUNCTION "order_fact_from_order"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_fact (order_id, city_id, service_id, region_id, driver_id, api_key_id, source, created_at, preorder, state, status_code, amount)
  VALUES (NEW.id, NEW.city_id, NEW.service_id, NEW.region_id, NEW.driver_id, NEW.api_key_id, NEW.source, NEW.created_at,
          NEW.pre_order_time IS NOT NULL, NEW.state, NEW.status_code, NEW.amount)
  ON CONFLICT (order_id) DO UPDATE SET city_id = EXCLUDED.city_id, service_id = EXCLUDED.service_id, region_id = EXCLUDED.region_id,
    driver_id = EXCLUDED.driver_id, api_key_id = EXCLUDED.api_key_id, source = EXCLUDED.source, created_at = EXCLUDED.created_at,
    preorder = EXCLUDED.preorder, state = EXCLUDED.state, status_code = EXCLUDED.status_code, amount = EXCLUDED.amount;
  RETURN NULL;
END $$;
-- (A deleted order takes its facts with it: the foreign key cascades.)
CREATE TRIGGER "order_fact_insert" AFTER INSERT ON "orders" FOR EACH ROW EXECUTE FUNCTION "order_fact_from_order"();
-- Only when a column the facts hold changes (an order is updated often: versions, positions of the route, notes).
CREATE TRIGGER "order_fact_update" AFTER UPDATE ON "orders" FOR EACH ROW
  WHEN ((OLD.city_id, OLD.service_id, OLD.region_id, OLD.driver_id, OLD.api_key_id, OLD.source, OLD.created_at, OLD.pre_order_time IS NOT NULL, OLD.state, OLD.status_code, OLD.amount)
        IS DISTINCT FROM (NEW.city_id, NEW.service_id, NEW.region_id, NEW.driver_id, NEW.api_key_id, NEW.source, NEW.created_at, NEW.pre_order_time IS NOT NULL, NEW.state, NEW.status_code, NEW.amount))
  EXECUTE FUNCTION "order_fact_from_order"();

-- A move through the state machine (the history is append-only: a new row only).
CREATE FUNCTION "order_fact_from_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM order_fact_refresh(OLD.order_id);
    IF TG_OP = 'UPDATE' AND NEW.order_id <> OLD.order_id THEN PERFORM order_fact_refresh(NEW.order_id); END IF;
    RETURN NULL;
  END IF;
  UPDATE order_fact f SET
    offered_at = CASE WHEN NEW.to_state IN ('SENT_TO_DRIVER', 'ORDER_ON_RADIO') THEN LEAST(f.offered_at, NEW.at) ELSE f.offered_at END,
    accepted_at = CASE WHEN NEW.to_state IN ('CONFIRMED', 'BOUND', 'PREORDER_ATTACHED') THEN LEAST(f.accepted_at, NEW.at) ELSE f.accepted_at END,
    at_pickup_at = CASE WHEN NEW.to_state = 'AWAITING_CLIENT' THEN LEAST(f.at_pickup_at, NEW.at) ELSE f.at_pickup_at END,
    completed_at = CASE WHEN NEW.to_state = 'DONE_SUCCESSFUL' THEN LEAST(f.completed_at, NEW.at) ELSE f.completed_at END,
    last_change_id = CASE WHEN f.last_change_id IS NULL OR NEW.id > f.last_change_id THEN NEW.id ELSE f.last_change_id END,
    last_actor = CASE WHEN f.last_change_id IS NULL OR NEW.id > f.last_change_id THEN NEW.actor_type::text ELSE f.last_actor END,
    last_reason = CASE WHEN f.last_change_id IS NULL OR NEW.id > f.last_change_id THEN NEW.reason ELSE f.last_reason END
  WHERE f.order_id = NEW.order_id;
  RETURN NULL;
END $$;
CREATE TRIGGER "order_fact_insert" AFTER INSERT ON "order_status_change" FOR EACH ROW EXECUTE FUNCTION "order_fact_from_move"();
CREATE TRIGGER "order_fact_change" AFTER DELETE OR UPDATE OF order_id, to_state, at, actor_type, reason ON "order_status_change" FOR EACH ROW EXECUTE FUNCTION "order_fact_from_move"();

-- An offer sent (answers change only its state: not a fact here).
CREATE FUNCTION "order_fact_from_offer"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM order_fact_refresh(OLD.order_id);
    IF TG_OP = 'UPDATE' AND NEW.order_id <> OLD.order_id THEN PERFORM order_fact_refresh(NEW.order_id); END IF;
    RETURN NULL;
  END IF;
  UPDATE order_fact f SET
    offers = f.offers + 1,
    offered_at = LEAST(f.offered_at, NEW.sent_at),
    first_source = CASE WHEN f.first_offer_id IS NULL OR (NEW.sent_at, NEW.id) < (f.first_offer_at, f.first_offer_id) THEN NEW.source ELSE f.first_source END,
    first_offer_at = CASE WHEN f.first_offer_id IS NULL OR (NEW.sent_at, NEW.id) < (f.first_offer_at, f.first_offer_id) THEN NEW.sent_at ELSE f.first_offer_at END,
    first_offer_id = CASE WHEN f.first_offer_id IS NULL OR (NEW.sent_at, NEW.id) < (f.first_offer_at, f.first_offer_id) THEN NEW.id ELSE f.first_offer_id END
  WHERE f.order_id = NEW.order_id;
  RETURN NULL;
END $$;
CREATE TRIGGER "order_fact_insert" AFTER INSERT ON "dispatch_offer" FOR EACH ROW EXECUTE FUNCTION "order_fact_from_offer"();
CREATE TRIGGER "order_fact_change" AFTER DELETE OR UPDATE OF order_id, sent_at, source ON "dispatch_offer" FOR EACH ROW EXECUTE FUNCTION "order_fact_from_offer"();

-- Bought from or sold to the exchange.
CREATE FUNCTION "order_fact_from_link"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE order_fact SET bought = FALSE, sold = FALSE WHERE order_id = OLD.order_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    UPDATE order_fact SET bought = NEW.role = 'BOUGHT', sold = NEW.role = 'SOLD' WHERE order_id = NEW.order_id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "order_fact_link" AFTER INSERT OR DELETE OR UPDATE OF order_id, role ON "exchange_link" FOR EACH ROW EXECUTE FUNCTION "order_fact_from_link"();

-- The orders already there.
INSERT INTO "order_fact" (order_id, city_id, service_id, region_id, driver_id, api_key_id, source, created_at, preorder, state, status_code, amount,
                          offered_at, accepted_at, at_pickup_at, completed_at, offers, first_source, first_offer_at, first_offer_id,
                          last_change_id, last_actor, last_reason, bought, sold)
SELECT order_id, city_id, service_id, region_id, driver_id, api_key_id, source, created_at, preorder, state, status_code, amount,
       offered_at, accepted_at, at_pickup_at, completed_at, offers, first_source, first_offer_at, first_offer_id,
       last_change_id, last_actor, last_reason, bought, sold
  FROM order_fact_source;
