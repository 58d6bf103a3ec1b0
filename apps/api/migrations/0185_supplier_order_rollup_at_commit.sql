-- The dashboard rollup (0050 supplier_order_daily, 0092 supplier_order_monthly) applied at commit instead of at
-- the statement (issue 14 "Load", docs/performance.md "Mixed buyer load"). Every checkout and every transmission
-- status change adds to the row of (today, supplier, status): the statement triggers took that row's lock at the
-- INSERT of the supplier orders and held it for the rest of the checkout (lines, attachments, transmissions,
-- cart reset), so all concurrent checkouts and transmissions of one supplier queued behind each other
-- (bench:load with 5 users: 850 ms per INSERT INTO supplier_orders, 620 ms per status UPDATE, nearly all lock wait).
--
-- Now the statement triggers only collect the transaction's deltas in supplier_order_rollup_pending (keyed by the
-- transaction id: no two transactions share a row, nobody waits), and a deferred constraint trigger moves them into
-- supplier_order_daily when the transaction commits, all keys of the transaction in one statement in key order (the
-- same order in every transaction: no deadlock). The rollup stays exact and transactional: the deltas are applied in
-- the committing transaction itself; a rolled-back transaction leaves nothing. The committed state of the pending
-- table is always empty.
CREATE TABLE supplier_order_rollup_pending (
  xid                xid8 NOT NULL DEFAULT pg_current_xact_id(),
  day                date NOT NULL,
  supplier_bp_number text NOT NULL,
  status_id          smallint NOT NULL,
  order_count        bigint NOT NULL DEFAULT 0,
  net_sum            numeric(18,2) NOT NULL DEFAULT 0,
  reached_count      bigint NOT NULL DEFAULT 0,
  sla_met_count      bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (xid, day, supplier_bp_number, status_id)
);

-- Same deltas as before (0050), now collected per transaction; the old and new row sets exist only for the
-- operations that have them, hence three branches.
CREATE OR REPLACE FUNCTION supplier_order_rollup_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  w integer;
BEGIN
  SELECT sla_window_hours INTO w FROM dashboard_state WHERE id = 1;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO supplier_order_rollup_pending AS p (day, supplier_bp_number, status_id, order_count, net_sum, reached_count, sla_met_count)
    SELECT day, supplier_bp_number, status_id, sum(c), sum(s), sum(r), sum(m)
      FROM (SELECT supplier_order_rollup_key_day(n.placed_at) AS day, n.supplier_bp_number, n.status_id, 1 AS c,
             n.net_value AS s, supplier_order_reached(n.status_id, n.sent_at) AS r,
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
    INSERT INTO supplier_order_rollup_pending AS p (day, supplier_bp_number, status_id, order_count, net_sum, reached_count, sla_met_count)
    SELECT day, supplier_bp_number, status_id, sum(c), sum(s), sum(r), sum(m)
      FROM (SELECT supplier_order_rollup_key_day(o.placed_at) AS day, o.supplier_bp_number, o.status_id, -1 AS c,
             -o.net_value AS s, -supplier_order_reached(o.status_id, o.sent_at) AS r,
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
    INSERT INTO supplier_order_rollup_pending AS p (day, supplier_bp_number, status_id, order_count, net_sum, reached_count, sla_met_count)
    SELECT day, supplier_bp_number, status_id, sum(c), sum(s), sum(r), sum(m)
      FROM (SELECT supplier_order_rollup_key_day(n.placed_at) AS day, n.supplier_bp_number, n.status_id, 1 AS c,
             n.net_value AS s, supplier_order_reached(n.status_id, n.sent_at) AS r,
             supplier_order_sla_met(n.status_id, n.placed_at, n.sent_at, n.confirmed_at, w) AS m
        FROM new_rows n WHERE NOT n.is_test
      UNION ALL
      SELECT supplier_order_rollup_key_day(o.placed_at) AS day, o.supplier_bp_number, o.status_id, -1 AS c,
             -o.net_value AS s, -supplier_order_reached(o.status_id, o.sent_at) AS r,
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

-- At commit: all deltas of the committing transaction into the daily rollup (whose row trigger keeps the monthly
-- one), in key order. The first event of a transaction moves everything; later events find nothing.
CREATE FUNCTION supplier_order_rollup_flush() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH moved AS (DELETE FROM supplier_order_rollup_pending WHERE xid = pg_current_xact_id() RETURNING *)
  INSERT INTO supplier_order_daily AS d (day, supplier_bp_number, status_id, order_count, net_sum, reached_count, sla_met_count)
  SELECT day, supplier_bp_number, status_id, order_count, net_sum, reached_count, sla_met_count
    FROM moved ORDER BY day, supplier_bp_number, status_id
  ON CONFLICT (day, supplier_bp_number, status_id) DO UPDATE SET
    order_count = d.order_count + EXCLUDED.order_count,
    net_sum = d.net_sum + EXCLUDED.net_sum,
    reached_count = d.reached_count + EXCLUDED.reached_count,
    sla_met_count = d.sla_met_count + EXCLUDED.sla_met_count;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER supplier_order_rollup_at_commit AFTER INSERT ON supplier_order_rollup_pending
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION supplier_order_rollup_flush();
