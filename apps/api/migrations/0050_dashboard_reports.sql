-- Dashboard pre-aggregation and reports (docs/dashboard-reports.md).

-- One row per Berlin calendar day × supplier × status: the dashboard reads this instead of scanning
-- supplier_orders, so a call costs O(days × suppliers), not O(orders). Kept exact by the statement
-- triggers below, which apply every insert/update/delete of supplier_orders in the same transaction.
CREATE TABLE supplier_order_daily (
  day                date NOT NULL,
  supplier_bp_number text NOT NULL,
  status_id          smallint NOT NULL,
  order_count        bigint NOT NULL DEFAULT 0,
  net_sum            numeric(18,2) NOT NULL DEFAULT 0,
  -- orders that reached the supplier (sent, or confirmed without a recorded send): the SLA's denominator
  reached_count      bigint NOT NULL DEFAULT 0,
  -- reached orders confirmed within dashboard_state.sla_window_hours of sending: the SLA's numerator
  sla_met_count      bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (day, supplier_bp_number, status_id)
);
CREATE INDEX supplier_order_daily_supplier_idx ON supplier_order_daily (supplier_bp_number, day);

-- The confirmation window the sla_met_count column was computed with. When the custom parameter
-- changes, the dashboard recomputes that column once (dashboard.rollup.ts) and stores the new window.
CREATE TABLE dashboard_state (
  id               smallint PRIMARY KEY CHECK (id = 1),
  sla_window_hours integer NOT NULL
);
INSERT INTO dashboard_state (id, sla_window_hours) VALUES (1, 48);

CREATE FUNCTION supplier_order_rollup_key_day(placed timestamptz) RETURNS date
  LANGUAGE sql IMMUTABLE AS $$ SELECT (placed AT TIME ZONE 'Europe/Berlin')::date $$;

CREATE FUNCTION supplier_order_sla_met(status smallint, placed timestamptz, sent timestamptz,
                                       confirmed timestamptz, window_hours integer) RETURNS integer
  LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN status IN (4, 5) AND confirmed IS NOT NULL
                 AND confirmed - COALESCE(sent, placed) <= make_interval(hours => window_hours)
           THEN 1 ELSE 0 END $$;

CREATE FUNCTION supplier_order_reached(status smallint, sent timestamptz) RETURNS integer
  LANGUAGE sql IMMUTABLE AS $$ SELECT CASE WHEN sent IS NOT NULL OR status IN (4, 5) THEN 1 ELSE 0 END $$;

-- Applies a set of signed rows (+1 new, -1 old) to the rollup in one statement per trigger firing,
-- so a checkout inserting many supplier orders costs one upsert per touched key, not per row.
CREATE FUNCTION supplier_order_rollup_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  w integer;
BEGIN
  SELECT sla_window_hours INTO w FROM dashboard_state WHERE id = 1;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO supplier_order_daily AS d (day, supplier_bp_number, status_id, order_count, net_sum, reached_count, sla_met_count)
    SELECT supplier_order_rollup_key_day(n.placed_at), n.supplier_bp_number, n.status_id, count(*), sum(n.net_value),
           sum(supplier_order_reached(n.status_id, n.sent_at)),
           sum(supplier_order_sla_met(n.status_id, n.placed_at, n.sent_at, n.confirmed_at, w))
      FROM new_rows n WHERE NOT n.is_test
     GROUP BY 1, 2, 3
    ON CONFLICT (day, supplier_bp_number, status_id) DO UPDATE SET
      order_count = d.order_count + EXCLUDED.order_count,
      net_sum = d.net_sum + EXCLUDED.net_sum,
      reached_count = d.reached_count + EXCLUDED.reached_count,
      sla_met_count = d.sla_met_count + EXCLUDED.sla_met_count;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE supplier_order_daily d SET
      order_count = d.order_count - o.c, net_sum = d.net_sum - o.s,
      reached_count = d.reached_count - o.r, sla_met_count = d.sla_met_count - o.m
      FROM (SELECT supplier_order_rollup_key_day(placed_at) AS day, supplier_bp_number, status_id, count(*) AS c,
                   sum(net_value) AS s, sum(supplier_order_reached(status_id, sent_at)) AS r,
                   sum(supplier_order_sla_met(status_id, placed_at, sent_at, confirmed_at, w)) AS m
              FROM old_rows WHERE NOT is_test GROUP BY 1, 2, 3) o
     WHERE d.day = o.day AND d.supplier_bp_number = o.supplier_bp_number AND d.status_id = o.status_id;
  ELSE
    INSERT INTO supplier_order_daily AS d (day, supplier_bp_number, status_id, order_count, net_sum, reached_count, sla_met_count)
    SELECT day, supplier_bp_number, status_id, sum(c), sum(s), sum(r), sum(m)
      FROM (
        SELECT supplier_order_rollup_key_day(n.placed_at) AS day, n.supplier_bp_number, n.status_id, 1 AS c,
               n.net_value AS s, supplier_order_reached(n.status_id, n.sent_at) AS r,
               supplier_order_sla_met(n.status_id, n.placed_at, n.sent_at, n.confirmed_at, w) AS m
          FROM new_rows n WHERE NOT n.is_test
        UNION ALL
        SELECT supplier_order_rollup_key_day(o.placed_at), o.supplier_bp_number, o.status_id, -1, -o.net_value,
               -supplier_order_reached(o.status_id, o.sent_at),
               -supplier_order_sla_met(o.status_id, o.placed_at, o.sent_at, o.confirmed_at, w)
          FROM old_rows o WHERE NOT o.is_test
      ) delta
     GROUP BY 1, 2, 3
    HAVING sum(c) <> 0 OR sum(s) <> 0 OR sum(r) <> 0 OR sum(m) <> 0
    ON CONFLICT (day, supplier_bp_number, status_id) DO UPDATE SET
      order_count = d.order_count + EXCLUDED.order_count,
      net_sum = d.net_sum + EXCLUDED.net_sum,
      reached_count = d.reached_count + EXCLUDED.reached_count,
      sla_met_count = d.sla_met_count + EXCLUDED.sla_met_count;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER supplier_orders_rollup_insert AFTER INSERT ON supplier_orders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION supplier_order_rollup_apply();
CREATE TRIGGER supplier_orders_rollup_update AFTER UPDATE ON supplier_orders
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION supplier_order_rollup_apply();
CREATE TRIGGER supplier_orders_rollup_delete AFTER DELETE ON supplier_orders
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION supplier_order_rollup_apply();

-- Orders that exist before this migration (demo world, earlier imports).
INSERT INTO supplier_order_daily (day, supplier_bp_number, status_id, order_count, net_sum, reached_count, sla_met_count)
SELECT supplier_order_rollup_key_day(placed_at), supplier_bp_number, status_id, count(*), sum(net_value),
       sum(supplier_order_reached(status_id, sent_at)),
       sum(supplier_order_sla_met(status_id, placed_at, sent_at, confirmed_at, 48))
  FROM supplier_orders WHERE NOT is_test GROUP BY 1, 2, 3;

-- Reports: one row per requested report; the generation job is queued in the same transaction.
CREATE TABLE reports (
  id                  bigserial PRIMARY KEY,
  user_id             uuid NOT NULL REFERENCES users(id),
  report_type_id      smallint NOT NULL,
  format              text NOT NULL DEFAULT 'xlsx' CHECK (format IN ('xlsx', 'csv')),
  start_date          date NOT NULL,
  end_date            date NOT NULL CHECK (end_date >= start_date),
  -- 1 Pending, 2 InProgress, 3 Completed, 4 Failed
  status_id           smallint NOT NULL DEFAULT 1 CHECK (status_id BETWEEN 1 AND 4),
  failure_reason      text,
  file_name           text,
  stored_as           text,
  row_count           bigint,
  attempts            integer NOT NULL DEFAULT 0,
  created_at          timestamptz NOT NULL DEFAULT now(),
  started_at          timestamptz,
  finished_at         timestamptz,
  expires_at          timestamptz
);
CREATE INDEX reports_user_idx ON reports (user_id, created_at DESC, id DESC);
CREATE INDEX reports_expiry_idx ON reports (expires_at) WHERE stored_as IS NOT NULL;

-- Searches that found nothing, logged by the catalogue search; one source of the zero-hit report.
CREATE TABLE search_zero_hits (
  id         bigserial PRIMARY KEY,
  term       text NOT NULL,
  user_id    uuid REFERENCES users(id),
  bp_number  text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX search_zero_hits_created_idx ON search_zero_hits (created_at);

-- Report range scans on the order tables.
CREATE INDEX IF NOT EXISTS supplier_orders_placed_idx ON supplier_orders (placed_at);
CREATE INDEX IF NOT EXISTS customer_orders_placed_idx ON customer_orders (placed_at);
