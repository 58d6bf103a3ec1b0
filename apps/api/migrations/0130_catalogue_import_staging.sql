-- Catalogue import at scale (issue 15 performance; docs/catalogue-import.md, docs/performance.md).

-- Search vectors of the products an import wrote, computed per batch and published into
-- product_search in one set-based statement when the import ends (with the German name order of
-- the new rows, so no search row is written twice). UNLOGGED: a crashed import runs again from its
-- file, and products without a search row are then not taken as unchanged.
CREATE UNLOGGED TABLE catalogue_import_search (
  import_id bigint NOT NULL,
  id        integer NOT NULL,
  vec       tsvector NOT NULL,
  PRIMARY KEY (import_id, id)
);

-- Price updates (T_UPDATE_PRICES) change only columns no index covers: product_offers' price
-- columns and product_search's price_cents. With free room on a page Postgres rewrites such a row on
-- its own page (HOT update) and touches none of the indexes (the GIN index over the search words
-- among them). Applies to pages written from now on (the next catalogue load or import).
ALTER TABLE product_offers SET (fillfactor = 90);
ALTER TABLE product_search SET (fillfactor = 90);
