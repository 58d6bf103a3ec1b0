-- How many offers a search row's lowest price was computed from (issue 15 performance; docs/catalogue-import.md). A
-- price update writes the lowest price of a product with a single offer straight from that offer's new price instead
-- of reading the product's offers again. 0: not known — the lowest price is computed from the offers, as before. Set
-- wherever the lowest price is computed from all of a product's offers (an import's publish, the refresh after
-- offers were withdrawn, a price update's recomputation).
ALTER TABLE product_search_prices ADD COLUMN offers integer NOT NULL DEFAULT 0;

-- No price changes here: the search index's followers need not hear of the rows (0205's trigger).
ALTER TABLE product_search_prices DISABLE TRIGGER product_search_prices_changes_update;
UPDATE product_search_prices s SET offers = x.n
  FROM (SELECT product_no, count(*)::int AS n FROM product_offers GROUP BY product_no) x
 WHERE s.id = x.product_no;
ALTER TABLE product_search_prices ENABLE TRIGGER product_search_prices_changes_update;
