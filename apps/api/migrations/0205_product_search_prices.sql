-- The search rows' lowest price apart from the wide search rows (issue 15 performance; docs/catalogue-import.md).
-- A price update (T_UPDATE_PRICES) changed product_search.price_cents: every changed price rewrote a ~455-byte row
-- with its words (tsvector) — at 1,000,000 products about 684 MB of pages touched, each with a full-page image in the
-- WAL after a checkpoint. Here a changed price rewrites a 32-byte row (1,000,000 rows ≈ 45 MB).
--
-- One row per search row (price NULL: price on demand or no priced offer), inserted in the same transaction as its
-- search row (catalogue load, import publish) and deleted with it (cascade). The SQL engine reads the price through
-- this table (price filter, price range of the facets), the index engine reads it with the search row.
CREATE TABLE product_search_prices (
  id          integer PRIMARY KEY REFERENCES product_search(id) ON DELETE CASCADE,
  -- lowest net list price per unit over the offers, in cents
  price_cents integer
) WITH (fillfactor = 80);

INSERT INTO product_search_prices (id, price_cents) SELECT id, price_cents FROM product_search ORDER BY id;
ALTER TABLE product_search DROP COLUMN price_cents;

-- The index engine's change feed (0150) sees price changes as changes of the product. Only UPDATE: a price row is
-- inserted and deleted together with its search row, whose own triggers record the product in that transaction.
CREATE TRIGGER product_search_prices_changes_update AFTER UPDATE ON product_search_prices
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_changes_capture();
