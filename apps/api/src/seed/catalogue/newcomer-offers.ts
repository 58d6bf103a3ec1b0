import type pg from 'pg';

/** The demo partner that administrators turn into a supplier on /admin (demo-world.ts). */
export const NEWCOMER_BP = '200010';
const OFFERS = 60;

/**
 * Trade data of the newcomer: copies of Wärmekontor's offers, a little cheaper, for a fixed slice of
 * products (the highest product numbers) that the demo buyer cannot order elsewhere, so the newcomer's
 * offer is the one a search card shows. Added after the generator ran: the generated catalogue stays
 * the same for everything else.
 */
export async function addNewcomerOffers(client: pg.Pool | pg.PoolClient): Promise<void> {
  const { rows } = await client.query('SELECT 1 FROM business_partners WHERE bp_number = $1', [NEWCOMER_BP]);
  if (!rows.length) return;
  await client.query(
    `INSERT INTO catalogue_supplier_numbers (supplier_no, bp_number)
     SELECT coalesce(max(supplier_no), 0) + 1, $1 FROM catalogue_supplier_numbers
     ON CONFLICT (bp_number) DO NOTHING`,
    [NEWCOMER_BP],
  );
  await client.query(
    `WITH picked AS (
       SELECT o.* FROM product_offers o
        WHERE o.supplier_bp_number = '200002' AND o.net_price IS NOT NULL AND NOT o.price_on_demand
          AND NOT EXISTS (SELECT 1 FROM product_offers x
                           WHERE x.product_no = o.product_no AND x.supplier_bp_number IN ('200001', '200003'))
        ORDER BY o.product_no DESC LIMIT $2
     ), inserted AS (
       INSERT INTO product_offers (product_instance_id, product_no, supplier_bp_number, supplier_pid, supplier_pid_norm,
          product_data_source, unit_code, net_price, price_basis, price_quantity_unit, gross_list_price, price_on_demand,
          min_order_quantity, min_order_unit, time_to_delivery_days, note_of_use)
       SELECT $1 || '~SE' || p.supplier_pid, p.product_no, $1, 'SE' || p.supplier_pid, 'SE' || p.supplier_pid_norm,
              1, p.unit_code, round(p.net_price * 0.97, 2), p.price_basis, p.price_quantity_unit, p.gross_list_price,
              p.price_on_demand, p.min_order_quantity, p.min_order_unit, p.time_to_delivery_days + 1, null
         FROM picked p
       ON CONFLICT DO NOTHING
       RETURNING product_no
     )
     UPDATE product_search s
        SET supplier_nos = array_append(s.supplier_nos, (SELECT supplier_no FROM catalogue_supplier_numbers WHERE bp_number = $1))
       FROM inserted i
      WHERE s.id = i.product_no`,
    [NEWCOMER_BP, OFFERS],
  );
  // A little cheaper: the lowest price of those search rows (product_search_prices) is the newcomer's now, else the
  // price slider and the price range would still go by the dearer offers.
  await client.query(
    `UPDATE product_search_prices sp SET price_cents = x.price, offers = x.offers
       FROM (SELECT o.product_no AS id,
                    round(min(o.net_price / o.price_basis) FILTER (WHERE o.net_price IS NOT NULL AND NOT o.price_on_demand) * 100)::int AS price,
                    count(*)::int AS offers
               FROM product_offers o
              WHERE o.product_no IN (SELECT product_no FROM product_offers WHERE supplier_bp_number = $1)
              GROUP BY o.product_no) x
      WHERE sp.id = x.id AND (sp.price_cents, sp.offers) IS DISTINCT FROM (x.price, x.offers)`,
    [NEWCOMER_BP],
  );
}
