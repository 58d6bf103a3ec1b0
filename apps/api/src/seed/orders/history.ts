import type pg from 'pg';

export interface OrderHistoryOptions {
  /** Number of supplier orders to create. */
  orders: number;
  seed: number;
  /** Average order lines per supplier order (1 … 2×avg−1); 0 creates none. */
  avgLines?: number;
  log?: (message: string) => void;
}

const BATCH = 100_000;

/**
 * Generates N supplier orders spread over the last two years, entirely in SQL (generate_series), in
 * batches of 100,000: about two supplier orders per customer order, the demo buyers and all suppliers,
 * statuses by age (older orders are mostly confirmed), confirmation times from an exponential
 * distribution whose mean differs per supplier (so the SLA differs), log-normal net values and order
 * lines. The dashboard rollup is filled by its triggers as the rows arrive.
 */
export async function loadOrderHistory(pool: pg.Pool, o: OrderHistoryOptions) {
  const log = o.log ?? (() => undefined);
  const avgLines = o.avgLines ?? 3;
  const client = await pool.connect();
  try {
    const { rows: parties } = await client.query<{ suppliers: string[]; buyers: string[]; user_id: string }>(
      `SELECT (SELECT array_agg(bp_number ORDER BY bp_number) FROM suppliers) AS suppliers,
              (SELECT array_agg(DISTINCT ubp.bp_number ORDER BY ubp.bp_number) FROM user_business_partners ubp
                 JOIN users u ON u.id = ubp.user_id WHERE u.role = 1) AS buyers,
              (SELECT id FROM users WHERE role = 1 ORDER BY email LIMIT 1) AS user_id`,
    );
    const { suppliers, buyers, user_id: userId } = parties[0];
    if (!suppliers?.length || !buyers?.length || !userId) throw new Error('demo world missing: no suppliers or buyers');
    const run = `G${Date.now().toString(36).toUpperCase()}`;
    await client.query('SELECT setseed($1)', [((o.seed % 1000) + 1) / 1001]);
    for (let from = 0; from < o.orders; from += BATCH) {
      const count = Math.min(BATCH, o.orders - from);
      const started = Date.now();
      await client.query('BEGIN');
      // Customer orders: one per two supplier orders; placed uniformly over 730 days.
      await client.query(
        `CREATE TEMP TABLE gen_co ON COMMIT DROP AS
         SELECT k, now() - random() * interval '730 days' AS placed_at,
                ($1::text[])[1 + floor(random() * array_length($1::text[], 1))::int] AS buyer
           FROM generate_series(0, ($2::int + 1) / 2 - 1) k`,
        [buyers, count],
      );
      await client.query(
        `INSERT INTO customer_orders (customer_order_number, bp_number, user_id, status_id, total_net, delivery_cost_total,
                                      customer_address, placed_at, modified_at)
         SELECT $1 || '-' || ($2::int + k), buyer, $3, 1, 0, 0, '{}'::jsonb, placed_at, placed_at FROM gen_co`,
        [run, from, userId],
      );
      await client.query(
        `CREATE TEMP TABLE gen_so ON COMMIT DROP AS
         SELECT s.i, co.id AS customer_order_id, g.buyer, g.placed_at, sup.bp AS supplier, sup.idx,
                round((exp(4.5 + random() * 2.5))::numeric, 2) AS net_value,
                random() AS r_status,
                -- mean confirmation time 6 … 30 h depending on the supplier
                -ln(1 - random()) * (6 + (sup.idx % 5) * 6) AS confirm_hours,
                random() * 0.2 AS send_hours
           FROM generate_series(0, $2::int - 1) s(i)
           JOIN gen_co g ON g.k = s.i / 2
           JOIN customer_orders co ON co.customer_order_number = $1 || '-' || ($3::int + g.k)
           CROSS JOIN LATERAL (SELECT 1 + floor(random() * array_length($4::text[], 1))::int AS idx) pick
           CROSS JOIN LATERAL (SELECT ($4::text[])[pick.idx] AS bp, pick.idx) sup`,
        [run, count, from, suppliers],
      );
      await client.query(
        `INSERT INTO supplier_orders (supplier_order_number, customer_order_id, supplier_bp_number, buyer_bp_number,
            status_id, net_value, delivery_cost, placed_at, modified_at, sent_at, confirmed_at, status_changed_at)
         SELECT $1 || '-' || ($2::int + i) || '-S', customer_order_id, supplier, buyer, st.status, net_value,
                CASE WHEN net_value > 250 THEN 0 ELSE 9.90 END, placed_at, placed_at, st.sent_at, st.confirmed_at,
                COALESCE(st.confirmed_at, st.sent_at, placed_at)
           FROM gen_so
           CROSS JOIN LATERAL (
             SELECT CASE WHEN r_status < 0.03 THEN 3                          -- sending failed
                         WHEN r_status < 0.06 THEN 6                          -- cancelled
                         WHEN placed_at + make_interval(secs => confirm_hours * 3600) > now() THEN 2  -- not yet confirmed
                         WHEN r_status < 0.11 THEN 2                          -- never confirmed
                         WHEN r_status < 0.19 THEN 5
                         ELSE 4 END AS status) s0
           CROSS JOIN LATERAL (
             SELECT s0.status,
                    CASE WHEN s0.status IN (2, 4, 5, 6) THEN placed_at + make_interval(secs => send_hours * 3600) END AS sent_at,
                    CASE WHEN s0.status IN (4, 5)
                         THEN placed_at + make_interval(secs => (send_hours + confirm_hours) * 3600) END AS confirmed_at) st`,
        [run, from],
      );
      if (avgLines > 0)
        await client.query(
          `INSERT INTO order_lines (supplier_order_id, line_no, product_instance_id, article_number, name, unit_price,
                                   quantity, quantity_price, unit_code)
           SELECT so.id, l, 'GEN-' || (1 + (so.id * 7 + l) % 5000), 'ART-' || lpad(((so.id * 13 + l) % 99999)::text, 5, '0'),
                  'Artikel ' || ((so.id * 13 + l) % 99999), round(so.net_value / n, 2), 1, round(so.net_value / n, 2), 'C62'
             FROM supplier_orders so
             CROSS JOIN LATERAL (SELECT 1 + (so.id % (2 * $1::int - 1))::int AS n) c
             CROSS JOIN LATERAL generate_series(1, c.n) l
            WHERE so.customer_order_id IN (SELECT DISTINCT customer_order_id FROM gen_so)`,
          [avgLines],
        );
      await client.query(
        `UPDATE customer_orders co SET total_net = t.net, delivery_cost_total = t.cost,
                status_id = CASE WHEN t.confirmed = t.n THEN 4 WHEN t.confirmed > 0 THEN 3 WHEN t.cancelled = t.n THEN 6 ELSE 2 END
           FROM (SELECT customer_order_id, sum(net_value) AS net, sum(delivery_cost) AS cost, count(*) AS n,
                        count(*) FILTER (WHERE status_id IN (4, 5)) AS confirmed, count(*) FILTER (WHERE status_id = 6) AS cancelled
                   FROM supplier_orders WHERE customer_order_id IN (SELECT customer_order_id FROM gen_so) GROUP BY 1) t
          WHERE co.id = t.customer_order_id`,
      );
      await client.query('COMMIT');
      log(
        `${from + count} von ${o.orders} Lieferantenbestellungen erzeugt (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
    }
    await client.query(
      'ANALYZE supplier_orders; ANALYZE customer_orders; ANALYZE order_lines; ANALYZE supplier_order_daily',
    );
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
