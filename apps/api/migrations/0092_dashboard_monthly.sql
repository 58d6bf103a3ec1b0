-- Coarser pre-aggregation for the dashboard (docs/dashboard-reports.md, 'Speed'): one row per Berlin
-- calendar month × supplier × status, kept equal to the sum of supplier_order_daily by a row trigger on
-- that table (every change of the daily rollup, including the SLA recomputation, is applied here in the
-- same transaction). A call over whole months reads ~24 × suppliers × statuses rows instead of
-- ~730 × suppliers × statuses; the days at the range's edges still come from the daily table.
CREATE TABLE supplier_order_monthly (
  month              date NOT NULL CHECK (month = date_trunc('month', month)::date),
  supplier_bp_number text NOT NULL,
  status_id          smallint NOT NULL,
  order_count        bigint NOT NULL DEFAULT 0,
  net_sum            numeric(18,2) NOT NULL DEFAULT 0,
  reached_count      bigint NOT NULL DEFAULT 0,
  sla_met_count      bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (month, supplier_bp_number, status_id)
);
CREATE INDEX supplier_order_monthly_supplier_idx ON supplier_order_monthly (supplier_bp_number, month);

CREATE FUNCTION supplier_order_monthly_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE supplier_order_monthly m SET
      order_count = m.order_count - OLD.order_count, net_sum = m.net_sum - OLD.net_sum,
      reached_count = m.reached_count - OLD.reached_count, sla_met_count = m.sla_met_count - OLD.sla_met_count
     WHERE m.month = date_trunc('month', OLD.day)::date AND m.supplier_bp_number = OLD.supplier_bp_number
       AND m.status_id = OLD.status_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO supplier_order_monthly AS m (month, supplier_bp_number, status_id, order_count, net_sum, reached_count, sla_met_count)
    VALUES (date_trunc('month', NEW.day)::date, NEW.supplier_bp_number, NEW.status_id, NEW.order_count, NEW.net_sum,
            NEW.reached_count, NEW.sla_met_count)
    ON CONFLICT (month, supplier_bp_number, status_id) DO UPDATE SET
      order_count = m.order_count + EXCLUDED.order_count,
      net_sum = m.net_sum + EXCLUDED.net_sum,
      reached_count = m.reached_count + EXCLUDED.reached_count,
      sla_met_count = m.sla_met_count + EXCLUDED.sla_met_count;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER supplier_order_daily_monthly AFTER INSERT OR UPDATE OR DELETE ON supplier_order_daily
  FOR EACH ROW EXECUTE FUNCTION supplier_order_monthly_apply();

INSERT INTO supplier_order_monthly (month, supplier_bp_number, status_id, order_count, net_sum, reached_count, sla_met_count)
SELECT date_trunc('month', day)::date, supplier_bp_number, status_id, sum(order_count), sum(net_sum),
       sum(reached_count), sum(sla_met_count)
  FROM supplier_order_daily GROUP BY 1, 2, 3;
