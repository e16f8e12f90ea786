-- CreateTable
CREATE TABLE "order_age_limit" (
    "kind" TEXT NOT NULL,
    "amber_seconds" INTEGER NOT NULL,
    "red_seconds" INTEGER NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_age_limit_pkey" PRIMARY KEY ("kind")
);


-- The defaults: a dispatcher's sense of "too long" on a busy night.
INSERT INTO "order_age_limit" ("kind", "amber_seconds", "red_seconds") VALUES
  ('MODERATION', 60, 180),
  ('FREE', 180, 420),
  ('RADIO', 120, 300),
  ('OFFERED', 45, 90),
  ('ACCEPTED', 300, 600),
  ('ADVANCE', 1800, 900);
