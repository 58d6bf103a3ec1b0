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

-- Follows a table: <table>_read_model_changes notifies on every kind of write (0220 follows more tables with it).
CREATE FUNCTION read_model_follow(t text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I
                  FOR EACH STATEMENT EXECUTE FUNCTION read_model_changes_notify()', t || '_read_model_changes', t);
END $$;

SELECT read_model_follow(t)
  FROM unnest(ARRAY['business_partners', 'suppliers', 'supplier_customers', 'custom_parameters', 'custom_parameter_values',
                    'favorite_products', 'units', 'products', 'product_offers', 'catalogue_offer_prices']) t;
