-- The read-model cache (http/read-model-cache.ts) learnt of every write to a followed table through NOTIFY
-- read_model_changes at commit (0215, 0220). Postgres serialises the commits of notifying transactions: each holds
-- one database-wide lock from its commit record until its commit is flushed. Every checkout, every line added to a
-- cart and every cart total stored writes the cart tables, so under load those commits queued behind each other
-- (bench:checkout: 6–18 ms of waiting per checkout at COMMIT).
--
-- The cart tables now count their changes instead: each statement adds 1 to a version row of its table, in the slot
-- of its backend (pg_backend_pid() mod 64: one transaction per backend at a time, so transactions running together
-- mostly write different rows and nobody waits). The sum of a table's slots rises with every committed change. Each
-- API process reads the sums on its listening connection after a write it answered (and tells the other processes
-- with one NOTIFY read_model_changes 'versions', outside any transaction), when told so, and every second (a writer
-- that ended before telling anyone). The other followed tables keep their NOTIFY at commit: they change rarely.
CREATE TABLE read_model_versions (
  table_name text NOT NULL,
  slot       smallint NOT NULL,
  version    bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (table_name, slot)
);
INSERT INTO read_model_versions (table_name, slot)
SELECT t, s FROM unnest(ARRAY['carts', 'cart_items', 'cart_totals']) t, generate_series(0, 63) s;

CREATE OR REPLACE FUNCTION read_model_changes_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME IN ('carts', 'cart_items', 'cart_totals') THEN
    INSERT INTO read_model_versions AS v (table_name, slot, version)
    VALUES (TG_TABLE_NAME, (pg_backend_pid() % 64)::smallint, 1)
    ON CONFLICT (table_name, slot) DO UPDATE SET version = v.version + 1;
  ELSE
    PERFORM pg_notify('read_model_changes', TG_TABLE_NAME);
  END IF;
  RETURN NULL;
END $$;
