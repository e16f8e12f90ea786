-- Street data changes are announced to every instance (NOTIFY taxi_reference,
-- payload 'street'), whoever writes them: each process keeps the streets in
-- memory (server/geo/street-index.ts) and reloads them when told. Statement
-- triggers: one notification per statement, and PostgreSQL sends one per
-- transaction at commit (equal notifications of a transaction are merged).
CREATE FUNCTION "taxi_notify_reference"() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('taxi_reference', TG_ARGV[0]);
  RETURN NULL;
END
$$;

CREATE TRIGGER "street_notify_reference"
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "street"
  FOR EACH STATEMENT EXECUTE FUNCTION "taxi_notify_reference"('street');

CREATE TRIGGER "street_word_notify_reference"
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "street_word"
  FOR EACH STATEMENT EXECUTE FUNCTION "taxi_notify_reference"('street');
