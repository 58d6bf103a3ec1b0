-- The cart overview (GET /v1/MultiCarts, the home page's header badge) joins the read-model cache (0215): carts, their
-- lines and their stored totals (cart_totals, 0145) notify read_model_changes like the tables of 0215, and so does
-- catalogue_state (a new catalogue version: the overview's totals are stamped with it). Statement-level, as in 0215.
CREATE TRIGGER carts_read_model_changes
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON carts
  FOR EACH STATEMENT EXECUTE FUNCTION read_model_changes_notify();
CREATE TRIGGER cart_items_read_model_changes
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cart_items
  FOR EACH STATEMENT EXECUTE FUNCTION read_model_changes_notify();
CREATE TRIGGER catalogue_state_read_model_changes
  AFTER UPDATE ON catalogue_state
  FOR EACH STATEMENT EXECUTE FUNCTION read_model_changes_notify();
CREATE TRIGGER cart_totals_read_model_changes
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cart_totals
  FOR EACH STATEMENT EXECUTE FUNCTION read_model_changes_notify();
