-- The cart tables' version rows (0631) were chosen by pg_backend_pid() mod 64. Process ids are handed out by the
-- machine, not by Postgres, so two backends of the pool often share a slot (20 connections in 64 slots: nearly always
-- some pair); a checkout then waited at its cart reset for the other transaction's commit on the same version row
-- (bench:checkout, BENCH_PG_STATS=1: 'transactionid' waits on DELETE FROM cart_items, ~1 ms per checkout).
--
-- Now the slot is the transaction id mod 64, as the dashboard roll-up's slots (0540): transactions running at the same
-- time have neighbouring ids, so they write different rows unless 64 or more transactions lie between them. A
-- transaction still writes one slot of a table for all its statements. The readers sum the slots as before.
CREATE OR REPLACE FUNCTION read_model_changes_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME IN ('carts', 'cart_items', 'cart_totals') THEN
    INSERT INTO read_model_versions AS v (table_name, slot, version)
    VALUES (TG_TABLE_NAME, (pg_current_xact_id()::text::bigint % 64)::smallint, 1)
    ON CONFLICT (table_name, slot) DO UPDATE SET version = v.version + 1;
  ELSE
    PERFORM pg_notify('read_model_changes', TG_TABLE_NAME);
  END IF;
  RETURN NULL;
END $$;
