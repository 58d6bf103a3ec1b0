-- The dashboard roll-up is written once per transaction (bench:checkout, docs/performance.md 'Checkout').
--
-- 1. The deferred flush (0185) is a row trigger on the pending deltas, so a checkout at five suppliers queued five
--    flush events: the first moved everything, the other four each ran the flush's DELETE … INSERT again and found
--    nothing. Postgres has no deferred statement triggers, but a row trigger's WHEN is evaluated when the row is written,
--    and a row whose WHEN is false queues no event. So the statement that writes the first deltas of a transaction marks
--    one of its rows `flush_due`, and only that row queues the flush. Invariant: while a transaction has pending rows, one
--    flush event of it is queued (the flush deletes them all, so the next delta after an early flush — SET CONSTRAINTS
--    … IMMEDIATE — finds none and queues a new one; a rolled-back savepoint drops its rows together with its event).
--
-- 2. The monthly roll-up followed the daily one by a row trigger: two statements per daily row (take the old row out,
--    add the new one), ten for a checkout's five suppliers. Now one statement trigger per operation adds the difference
--    of the daily rows' transition tables, all keys in one statement, in key order (as before: no deadlock).
ALTER TABLE supplier_order_rollup_pending ADD COLUMN flush_due boolean NOT NULL DEFAULT false;

CREATE OR REPLACE FUNCTION supplier_order_rollup_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  w integer;
  -- A transaction with pending rows has its flush queued (see above); otherwise this statement's first row queues it.
  queue_flush boolean;
BEGIN
  SELECT sla_window_hours INTO w FROM dashboard_state WHERE id = 1;
  queue_flush := NOT EXISTS (SELECT 1 FROM supplier_order_rollup_pending WHERE xid = pg_current_xact_id());
  IF TG_OP = 'INSERT' THEN
    INSERT INTO supplier_order_rollup_pending AS p
      (day, supplier_bp_number, status_id, order_count, net_sum, reached_count, sla_met_count, flush_due)
    SELECT day, supplier_bp_number, status_id, sum(c), sum(s), sum(r), sum(m), queue_flush AND row_number() OVER () = 1
      FROM (SELECT supplier_order_rollup_key_day(n.placed_at) AS day, n.supplier_bp_number, n.status_id, 1 AS c,
             n.current_net_value AS s, supplier_order_reached(n.status_id, n.sent_at) AS r,
             supplier_order_sla_met(n.status_id, n.placed_at, n.sent_at, n.confirmed_at, w) AS m
        FROM new_rows n WHERE NOT n.is_test) delta
     GROUP BY 1, 2, 3
    HAVING sum(c) <> 0 OR sum(s) <> 0 OR sum(r) <> 0 OR sum(m) <> 0
    ON CONFLICT (xid, day, supplier_bp_number, status_id) DO UPDATE SET
      order_count = p.order_count + EXCLUDED.order_count,
      net_sum = p.net_sum + EXCLUDED.net_sum,
      reached_count = p.reached_count + EXCLUDED.reached_count,
      sla_met_count = p.sla_met_count + EXCLUDED.sla_met_count;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO supplier_order_rollup_pending AS p
      (day, supplier_bp_number, status_id, order_count, net_sum, reached_count, sla_met_count, flush_due)
    SELECT day, supplier_bp_number, status_id, sum(c), sum(s), sum(r), sum(m), queue_flush AND row_number() OVER () = 1
      FROM (SELECT supplier_order_rollup_key_day(o.placed_at) AS day, o.supplier_bp_number, o.status_id, -1 AS c,
             -o.current_net_value AS s, -supplier_order_reached(o.status_id, o.sent_at) AS r,
             -supplier_order_sla_met(o.status_id, o.placed_at, o.sent_at, o.confirmed_at, w) AS m
        FROM old_rows o WHERE NOT o.is_test) delta
     GROUP BY 1, 2, 3
    HAVING sum(c) <> 0 OR sum(s) <> 0 OR sum(r) <> 0 OR sum(m) <> 0
    ON CONFLICT (xid, day, supplier_bp_number, status_id) DO UPDATE SET
      order_count = p.order_count + EXCLUDED.order_count,
      net_sum = p.net_sum + EXCLUDED.net_sum,
      reached_count = p.reached_count + EXCLUDED.reached_count,
      sla_met_count = p.sla_met_count + EXCLUDED.sla_met_count;
  ELSE
    INSERT INTO supplier_order_rollup_pending AS p
      (day, supplier_bp_number, status_id, order_count, net_sum, reached_count, sla_met_count, flush_due)
    SELECT day, supplier_bp_number, status_id, sum(c), sum(s), sum(r), sum(m), queue_flush AND row_number() OVER () = 1
      FROM (SELECT supplier_order_rollup_key_day(n.placed_at) AS day, n.supplier_bp_number, n.status_id, 1 AS c,
             n.current_net_value AS s, supplier_order_reached(n.status_id, n.sent_at) AS r,
             supplier_order_sla_met(n.status_id, n.placed_at, n.sent_at, n.confirmed_at, w) AS m
        FROM new_rows n WHERE NOT n.is_test
      UNION ALL
      SELECT supplier_order_rollup_key_day(o.placed_at) AS day, o.supplier_bp_number, o.status_id, -1 AS c,
             -o.current_net_value AS s, -supplier_order_reached(o.status_id, o.sent_at) AS r,
             -supplier_order_sla_met(o.status_id, o.placed_at, o.sent_at, o.confirmed_at, w) AS m
        FROM old_rows o WHERE NOT o.is_test) delta
     GROUP BY 1, 2, 3
    HAVING sum(c) <> 0 OR sum(s) <> 0 OR sum(r) <> 0 OR sum(m) <> 0
    ON CONFLICT (xid, day, supplier_bp_number, status_id) DO UPDATE SET
      order_count = p.order_count + EXCLUDED.order_count,
      net_sum = p.net_sum + EXCLUDED.net_sum,
      reached_count = p.reached_count + EXCLUDED.reached_count,
      sla_met_count = p.sla_met_count + EXCLUDED.sla_met_count;
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER supplier_order_rollup_at_commit ON supplier_order_rollup_pending;
CREATE CONSTRAINT TRIGGER supplier_order_rollup_at_commit AFTER INSERT ON supplier_order_rollup_pending
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.flush_due) EXECUTE FUNCTION supplier_order_rollup_flush();

-- The daily rows' difference (new minus old) per monthly key, added in one statement. The transition tables that an
-- operation lacks are not referenced (plpgsql would fail on them), hence the branches.
CREATE FUNCTION supplier_order_monthly_apply_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO supplier_order_monthly AS m (month, supplier_bp_number, status_id, slot, order_count, net_sum, reached_count, sla_met_count)
    SELECT date_trunc('month', n.day)::date, n.supplier_bp_number, n.status_id, n.slot, sum(n.order_count),
           sum(n.net_sum), sum(n.reached_count), sum(n.sla_met_count)
      FROM new_rows n GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (month, supplier_bp_number, status_id, slot) DO UPDATE SET
      order_count = m.order_count + EXCLUDED.order_count,
      net_sum = m.net_sum + EXCLUDED.net_sum,
      reached_count = m.reached_count + EXCLUDED.reached_count,
      sla_met_count = m.sla_met_count + EXCLUDED.sla_met_count;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO supplier_order_monthly AS m (month, supplier_bp_number, status_id, slot, order_count, net_sum, reached_count, sla_met_count)
    SELECT date_trunc('month', o.day)::date, o.supplier_bp_number, o.status_id, o.slot, -sum(o.order_count),
           -sum(o.net_sum), -sum(o.reached_count), -sum(o.sla_met_count)
      FROM old_rows o GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (month, supplier_bp_number, status_id, slot) DO UPDATE SET
      order_count = m.order_count + EXCLUDED.order_count,
      net_sum = m.net_sum + EXCLUDED.net_sum,
      reached_count = m.reached_count + EXCLUDED.reached_count,
      sla_met_count = m.sla_met_count + EXCLUDED.sla_met_count;
  ELSE
    INSERT INTO supplier_order_monthly AS m (month, supplier_bp_number, status_id, slot, order_count, net_sum, reached_count, sla_met_count)
    SELECT month, supplier_bp_number, status_id, slot, sum(c), sum(s), sum(r), sum(x)
      FROM (SELECT date_trunc('month', n.day)::date AS month, n.supplier_bp_number, n.status_id, n.slot,
                   n.order_count AS c, n.net_sum AS s, n.reached_count AS r, n.sla_met_count AS x
              FROM new_rows n
            UNION ALL
            SELECT date_trunc('month', o.day)::date, o.supplier_bp_number, o.status_id, o.slot,
                   -o.order_count, -o.net_sum, -o.reached_count, -o.sla_met_count
              FROM old_rows o) delta
     GROUP BY 1, 2, 3, 4
    HAVING sum(c) <> 0 OR sum(s) <> 0 OR sum(r) <> 0 OR sum(x) <> 0
     ORDER BY 1, 2, 3, 4
    ON CONFLICT (month, supplier_bp_number, status_id, slot) DO UPDATE SET
      order_count = m.order_count + EXCLUDED.order_count,
      net_sum = m.net_sum + EXCLUDED.net_sum,
      reached_count = m.reached_count + EXCLUDED.reached_count,
      sla_met_count = m.sla_met_count + EXCLUDED.sla_met_count;
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER supplier_order_daily_monthly ON supplier_order_daily;
CREATE TRIGGER supplier_order_daily_monthly_insert AFTER INSERT ON supplier_order_daily
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION supplier_order_monthly_apply_rows();
CREATE TRIGGER supplier_order_daily_monthly_update AFTER UPDATE ON supplier_order_daily
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION supplier_order_monthly_apply_rows();
CREATE TRIGGER supplier_order_daily_monthly_delete AFTER DELETE ON supplier_order_daily
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION supplier_order_monthly_apply_rows();
DROP FUNCTION supplier_order_monthly_apply();
