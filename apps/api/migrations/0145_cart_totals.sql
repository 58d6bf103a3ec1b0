-- Cart overview totals kept per cart (issue 13 "Other hot paths"; docs/carts-orders.md "Cart overview totals").
-- The overview (GET /v1/MultiCarts) reads one row per cart instead of pricing every line on every call.
-- Stored totals are valid only under the stamp they were computed with:
--   content_version  bumped in the same transaction by every change of the cart's lines, of the buyer's
--                    relations (supplier_customers) and of the known units (the triggers below),
--   catalogue_state.version  bumped by every catalogue import/load (offers and prices),
--   the price day    (Europe/Berlin; future price blocks start at midnight without a write),
--   the price strategy's own stamp (PriceStrategy.cacheStamp; a strategy without one is never cached).
-- The API compares the stamp on read and recomputes (through the price strategy) whatever is stale.
CREATE TABLE cart_totals (
  cart_id         bigint PRIMARY KEY REFERENCES carts(id) ON DELETE CASCADE,
  content_version bigint NOT NULL DEFAULT 0,
  stamp           text,
  item_count      integer,
  total_net_value numeric(16,2)
);
INSERT INTO cart_totals (cart_id) SELECT id FROM carts;

CREATE FUNCTION cart_totals_create() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO cart_totals (cart_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER carts_totals_create AFTER INSERT ON carts FOR EACH ROW EXECUTE FUNCTION cart_totals_create();

-- One UPDATE per statement (an IDS transfer or a quick order moves hundreds of lines in one statement).
CREATE FUNCTION cart_totals_lines_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE cart_totals SET content_version = content_version + 1 WHERE cart_id IN (SELECT cart_id FROM new_lines);
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE cart_totals SET content_version = content_version + 1 WHERE cart_id IN (SELECT cart_id FROM old_lines);
  ELSE
    UPDATE cart_totals SET content_version = content_version + 1
     WHERE cart_id IN (SELECT cart_id FROM new_lines UNION SELECT cart_id FROM old_lines);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER cart_items_totals_insert AFTER INSERT ON cart_items REFERENCING NEW TABLE AS new_lines
  FOR EACH STATEMENT EXECUTE FUNCTION cart_totals_lines_changed();
CREATE TRIGGER cart_items_totals_update AFTER UPDATE ON cart_items REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines
  FOR EACH STATEMENT EXECUTE FUNCTION cart_totals_lines_changed();
CREATE TRIGGER cart_items_totals_delete AFTER DELETE ON cart_items REFERENCING OLD TABLE AS old_lines
  FOR EACH STATEMENT EXECUTE FUNCTION cart_totals_lines_changed();

-- A relation decides whether a supplier's lines count (orderability): every cart of the buyer.
CREATE FUNCTION cart_totals_relation_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE cart_totals t SET content_version = content_version + 1 FROM carts c
   WHERE c.id = t.cart_id
     AND c.bp_number IN (SELECT buyer_bp_number FROM new_rel UNION SELECT buyer_bp_number FROM old_rel);
  RETURN NULL;
END $$;
CREATE FUNCTION cart_totals_relation_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE cart_totals t SET content_version = content_version + 1 FROM carts c
   WHERE c.id = t.cart_id AND c.bp_number IN (SELECT buyer_bp_number FROM new_rel);
  RETURN NULL;
END $$;
CREATE FUNCTION cart_totals_relation_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE cart_totals t SET content_version = content_version + 1 FROM carts c
   WHERE c.id = t.cart_id AND c.bp_number IN (SELECT buyer_bp_number FROM old_rel);
  RETURN NULL;
END $$;
CREATE TRIGGER supplier_customers_totals_insert AFTER INSERT ON supplier_customers REFERENCING NEW TABLE AS new_rel
  FOR EACH STATEMENT EXECUTE FUNCTION cart_totals_relation_inserted();
CREATE TRIGGER supplier_customers_totals_update AFTER UPDATE ON supplier_customers
  REFERENCING OLD TABLE AS old_rel NEW TABLE AS new_rel FOR EACH STATEMENT EXECUTE FUNCTION cart_totals_relation_changed();
CREATE TRIGGER supplier_customers_totals_delete AFTER DELETE ON supplier_customers REFERENCING OLD TABLE AS old_rel
  FOR EACH STATEMENT EXECUTE FUNCTION cart_totals_relation_deleted();

-- An offer in a unit the portal does not know is not orderable: a change of the units touches every cart.
CREATE FUNCTION cart_totals_all_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE cart_totals SET content_version = content_version + 1;
  RETURN NULL;
END $$;
CREATE TRIGGER units_totals_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON units
  FOR EACH STATEMENT EXECUTE FUNCTION cart_totals_all_changed();
