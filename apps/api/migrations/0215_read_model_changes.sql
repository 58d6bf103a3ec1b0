-- Freshness of the API's read-model cache (issue 13 "Other hot paths", http/read-model-cache.ts): the home page's
-- and the product page's answers are kept per caller in each API process until a table they read changes. Every
-- statement that writes one of these tables wakes the API processes with NOTIFY read_model_changes (payload: the
-- table's name), delivered at commit; each process drops the answers that read the table. Statement-level: one
-- notification per statement (Postgres folds equal ones of a transaction), however many rows it wrote.
-- The product page's answers are also keyed by the catalogue version (catalogue_state, 0190: every import batch
-- raises it); products, offers and future prices are followed as well for writes that do not (a fix by hand).
-- Without a LISTEN connection the processes keep nothing and read per request, as before.
CREATE FUNCTION read_model_changes_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('read_model_changes', TG_TABLE_NAME);
  RETURN NULL;
END $$;

CREATE TRIGGER business_partners_read_model_changes
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON business_partners
  FOR EACH STATEMENT EXECUTE FUNCTION read_model_changes_notify();
CREATE TRIGGER suppliers_read_model_changes
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON suppliers
  FOR EACH STATEMENT EXECUTE FUNCTION read_model_changes_notify();
CREATE TRIGGER supplier_customers_read_model_changes
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON supplier_customers
  FOR EACH STATEMENT EXECUTE FUNCTION read_model_changes_notify();
CREATE TRIGGER custom_parameters_read_model_changes
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON custom_parameters
  FOR EACH STATEMENT EXECUTE FUNCTION read_model_changes_notify();
CREATE TRIGGER custom_parameter_values_read_model_changes
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON custom_parameter_values
  FOR EACH STATEMENT EXECUTE FUNCTION read_model_changes_notify();
CREATE TRIGGER favorite_products_read_model_changes
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON favorite_products
  FOR EACH STATEMENT EXECUTE FUNCTION read_model_changes_notify();
CREATE TRIGGER units_read_model_changes
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON units
  FOR EACH STATEMENT EXECUTE FUNCTION read_model_changes_notify();
CREATE TRIGGER products_read_model_changes
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION read_model_changes_notify();
CREATE TRIGGER product_offers_read_model_changes
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_offers
  FOR EACH STATEMENT EXECUTE FUNCTION read_model_changes_notify();
CREATE TRIGGER catalogue_offer_prices_read_model_changes
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON catalogue_offer_prices
  FOR EACH STATEMENT EXECUTE FUNCTION read_model_changes_notify();
