-- The search index's change feed (0150) records a statement's changed products in one row (an array of ids) instead
-- of a row per product (issue 15 performance; docs/catalogue-import.md). A price batch of 20,000 products spent 48 of
-- its 200 ms in the capture trigger: 20,000 inserts, each with its sequence value and two index entries. One row per
-- statement costs about 3 ms. Rows written before this migration keep product_id; the followers read both.
ALTER TABLE search_changes ADD COLUMN product_ids integer[], ALTER COLUMN product_id DROP NOT NULL;
ALTER TABLE search_changes ADD CONSTRAINT search_changes_products CHECK (product_id IS NOT NULL OR product_ids IS NOT NULL);

CREATE OR REPLACE FUNCTION search_changes_capture() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A statement that changed no row records nothing (HAVING: no row without ids).
  IF TG_OP = 'DELETE' THEN
    INSERT INTO search_changes (product_ids) SELECT array_agg(id) FROM old_rows HAVING count(*) > 0;
  ELSE
    INSERT INTO search_changes (product_ids) SELECT array_agg(id) FROM new_rows HAVING count(*) > 0;
  END IF;
  PERFORM pg_notify('search_changes', '');
  RETURN NULL;
END $$;
