-- After a supplier's confirmation every view, figure and export uses the confirmed values (docs/supplier-orders.md,
-- "What a confirmation changes"). The ordered values stay in their columns ('bestellt').

-- The confirmed line value (price ÷ basis × minimum quantity × quantity, written by the confirmation with the same
-- priceTotal() as the ordered quantity_price); null until the line is confirmed or when it has no price.
ALTER TABLE order_lines ADD COLUMN IF NOT EXISTS confirmed_quantity_price numeric(14,2);

UPDATE order_lines
   SET confirmed_quantity_price = CASE
         WHEN confirmation_kind = 'removed' THEN 0
         WHEN COALESCE(confirmed_unit_price, unit_price) IS NULL THEN NULL
         ELSE round(COALESCE(confirmed_unit_price, unit_price) / CASE WHEN price_basis > 0 THEN price_basis ELSE 1 END
                    * CASE WHEN min_quantity > 0 THEN min_quantity ELSE 1 END * COALESCE(confirmed_quantity, quantity), 2)
       END
 WHERE confirmation_kind IS NOT NULL;

-- The supplier order's value as it stands: the confirmed total once there is one, the ordered value before.
-- Lists, details, reports and the dashboard rollup read this one column.
ALTER TABLE supplier_orders
  ADD COLUMN current_net_value numeric(14,2) GENERATED ALWAYS AS (COALESCE(confirmed_total, net_value)) STORED;

-- The rollup's statement triggers (0185) now sum the current value: a confirmation's UPDATE of confirmed_total
-- moves the difference in the same transaction (old row out, new row in), like a status change.
CREATE OR REPLACE FUNCTION supplier_order_rollup_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  w integer;
BEGIN
  SELECT sla_window_hours INTO w FROM dashboard_state WHERE id = 1;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO supplier_order_rollup_pending AS p (day, supplier_bp_number, status_id, order_count, net_sum, reached_count, sla_met_count)
    SELECT day, supplier_bp_number, status_id, sum(c), sum(s), sum(r), sum(m)
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
    INSERT INTO supplier_order_rollup_pending AS p (day, supplier_bp_number, status_id, order_count, net_sum, reached_count, sla_met_count)
    SELECT day, supplier_bp_number, status_id, sum(c), sum(s), sum(r), sum(m)
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
    INSERT INTO supplier_order_rollup_pending AS p (day, supplier_bp_number, status_id, order_count, net_sum, reached_count, sla_met_count)
    SELECT day, supplier_bp_number, status_id, sum(c), sum(s), sum(r), sum(m)
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

-- Orders confirmed before this migration were summed with their ordered value: move the difference (the daily
-- rollup's row trigger carries it into the monthly one).
INSERT INTO supplier_order_daily AS d (day, supplier_bp_number, status_id, order_count, net_sum, reached_count, sla_met_count)
SELECT supplier_order_rollup_key_day(placed_at), supplier_bp_number, status_id, 0, sum(confirmed_total - net_value), 0, 0
  FROM supplier_orders
 WHERE NOT is_test AND confirmed_total IS NOT NULL AND confirmed_total <> net_value
 GROUP BY 1, 2, 3
 ORDER BY 1, 2, 3
ON CONFLICT (day, supplier_bp_number, status_id) DO UPDATE SET net_sum = d.net_sum + EXCLUDED.net_sum;

-- Which mails about their orders a user gets ('Mein Profil'). No row: every mail (the default).
CREATE TABLE user_mail_settings (
  user_id         uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  order_placed    boolean NOT NULL DEFAULT true,
  order_confirmed boolean NOT NULL DEFAULT true,
  order_changed   boolean NOT NULL DEFAULT true,
  order_rejected  boolean NOT NULL DEFAULT true,
  updated_at      timestamptz NOT NULL DEFAULT now()
);
