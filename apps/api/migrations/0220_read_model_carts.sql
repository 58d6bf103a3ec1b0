-- The cart overview (GET /v1/MultiCarts, the home page's header badge) joins the read-model cache (0215): carts, their
-- lines and their stored totals (cart_totals, 0145) notify read_model_changes like the tables of 0215, and so does
-- catalogue_state (a new catalogue version: the overview's totals are stamped with it). Statement-level, as in 0215.
SELECT read_model_follow(t) FROM unnest(ARRAY['carts', 'cart_items', 'cart_totals']) t;
CREATE TRIGGER catalogue_state_read_model_changes
  AFTER UPDATE ON catalogue_state
  FOR EACH STATEMENT EXECUTE FUNCTION read_model_changes_notify();
