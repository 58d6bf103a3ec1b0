-- Change feed of the in-process search index (issue 13, ADR 0003): every statement that inserts, updates
-- or deletes rows of product_search (catalogue load, import publish, offer/price refresh, tree moves)
-- appends the product ids here and wakes the API processes with NOTIFY search_changes. Each process
-- follows the feed by transaction id: it reads the rows of transactions older than the oldest running
-- one (pg_snapshot_xmin), so a transaction that commits late is never skipped; the poll every second
-- covers a lost notification. Rows older than a day are pruned by the followers.
CREATE TABLE search_changes (
  seq        bigserial PRIMARY KEY,
  xid        xid8 NOT NULL DEFAULT pg_current_xact_id(),
  product_id integer NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX search_changes_xid_idx ON search_changes (xid);

CREATE FUNCTION search_changes_capture() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO search_changes (product_id) SELECT id FROM old_rows;
  ELSE
    INSERT INTO search_changes (product_id) SELECT id FROM new_rows;
  END IF;
  PERFORM pg_notify('search_changes', '');
  RETURN NULL;
END $$;

CREATE TRIGGER product_search_changes_insert AFTER INSERT ON product_search
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_changes_capture();
CREATE TRIGGER product_search_changes_update AFTER UPDATE ON product_search
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_changes_capture();
CREATE TRIGGER product_search_changes_delete AFTER DELETE ON product_search
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_changes_capture();
