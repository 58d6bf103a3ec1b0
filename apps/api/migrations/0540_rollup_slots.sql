-- The dashboard rollup (0050 supplier_order_daily, 0092 supplier_order_monthly) split into 16 slots per key.
-- Since 0185 every committing order transaction adds its deltas to the row of (day, supplier, status) at commit and
-- holds that row's lock until its commit is flushed: every checkout of the day adds to (today, supplier, 'new') of
-- each of its suppliers, and every transmission moves an order of today from 'new' to 'sent'. With 8 buyers checking
-- out 50 lines at 5 suppliers at once (bench:checkout), their commits queued behind each other on those few rows
-- (pg_stat_activity: 6–14 ms of lock wait per checkout at COMMIT, 2 ms per roll-up statement).
--
-- Now each transaction adds to the slot of its transaction id (xid mod 16): transactions running at the same time
-- have neighbouring ids, so they write different rows and nobody waits. A key has at most 16 rows; the dashboard
-- already sums the rows of a period, so it reads the same figures. The rollup stays exact and transactional (the
-- deltas are still applied in the committing transaction itself), and the monthly rollup keeps the daily one's slot.
ALTER TABLE supplier_order_daily ADD COLUMN slot smallint NOT NULL DEFAULT 0;
ALTER TABLE supplier_order_daily DROP CONSTRAINT supplier_order_daily_pkey;
ALTER TABLE supplier_order_daily ADD PRIMARY KEY (day, supplier_bp_number, status_id, slot);

ALTER TABLE supplier_order_monthly ADD COLUMN slot smallint NOT NULL DEFAULT 0;
ALTER TABLE supplier_order_monthly DROP CONSTRAINT supplier_order_monthly_pkey;
ALTER TABLE supplier_order_monthly ADD PRIMARY KEY (month, supplier_bp_number, status_id, slot);

CREATE OR REPLACE FUNCTION supplier_order_rollup_flush() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH moved AS (DELETE FROM supplier_order_rollup_pending WHERE xid = pg_current_xact_id() RETURNING *)
  INSERT INTO supplier_order_daily AS d (day, supplier_bp_number, status_id, slot, order_count, net_sum, reached_count, sla_met_count)
  SELECT day, supplier_bp_number, status_id, (pg_current_xact_id()::text::bigint % 16)::smallint, order_count, net_sum,
         reached_count, sla_met_count
    FROM moved ORDER BY day, supplier_bp_number, status_id
  ON CONFLICT (day, supplier_bp_number, status_id, slot) DO UPDATE SET
    order_count = d.order_count + EXCLUDED.order_count,
    net_sum = d.net_sum + EXCLUDED.net_sum,
    reached_count = d.reached_count + EXCLUDED.reached_count,
    sla_met_count = d.sla_met_count + EXCLUDED.sla_met_count;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION supplier_order_monthly_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE supplier_order_monthly m SET
      order_count = m.order_count - OLD.order_count, net_sum = m.net_sum - OLD.net_sum,
      reached_count = m.reached_count - OLD.reached_count, sla_met_count = m.sla_met_count - OLD.sla_met_count
     WHERE m.month = date_trunc('month', OLD.day)::date AND m.supplier_bp_number = OLD.supplier_bp_number
       AND m.status_id = OLD.status_id AND m.slot = OLD.slot;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO supplier_order_monthly AS m (month, supplier_bp_number, status_id, slot, order_count, net_sum, reached_count, sla_met_count)
    VALUES (date_trunc('month', NEW.day)::date, NEW.supplier_bp_number, NEW.status_id, NEW.slot, NEW.order_count, NEW.net_sum,
            NEW.reached_count, NEW.sla_met_count)
    ON CONFLICT (month, supplier_bp_number, status_id, slot) DO UPDATE SET
      order_count = m.order_count + EXCLUDED.order_count,
      net_sum = m.net_sum + EXCLUDED.net_sum,
      reached_count = m.reached_count + EXCLUDED.reached_count,
      sla_met_count = m.sla_met_count + EXCLUDED.sla_met_count;
  END IF;
  RETURN NULL;
END $$;
