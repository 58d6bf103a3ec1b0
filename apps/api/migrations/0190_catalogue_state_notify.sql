-- Freshness of the catalogue meta cache (issue 13): a new catalogue version (import publish, catalogue load)
-- wakes the API processes with NOTIFY catalogue_state (payload: the version), delivered at commit. The
-- processes' meta caches (catalogue-meta.ts) re-read catalogue_state on the notification instead of
-- trusting their version for up to 2 s; the poll stays as the fallback for a lost LISTEN connection.
CREATE FUNCTION catalogue_state_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalogue_state', NEW.version::text);
  RETURN NULL;
END $$;

CREATE TRIGGER catalogue_state_version_notify AFTER UPDATE OF version ON catalogue_state
  FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version) EXECUTE FUNCTION catalogue_state_notify();
