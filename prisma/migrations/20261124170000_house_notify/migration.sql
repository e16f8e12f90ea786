-- House changes are announced like street changes (NOTIFY taxi_reference,
-- payload 'house'; migration street_index_notify): each process keeps the
-- houses it has looked up (server/geo/house-cache.ts) and forgets them when
-- told, whoever wrote the change.
CREATE TRIGGER "house_notify_reference"
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "house"
  FOR EACH STATEMENT EXECUTE FUNCTION "taxi_notify_reference"('house');
