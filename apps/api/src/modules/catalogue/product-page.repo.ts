/**
 * The product page's offers in one statement: each offer with today's price, the caller's relation to its supplier,
 * the supplier's settings (hide flags, onboarding form) and whether it is the user's favourite for the partner —
 * instead of the offers, then relations, settings and favourites as four round trips (the hot paths besides search).
 */
import type pg from 'pg';
import type { OfferRow } from './offers.ts';
import { todayPriceColumns, todayPriceJoin } from './today-price.ts';

export interface OfferStateRow extends OfferRow {
  /** The caller's partner's relation to the offer's supplier (null: none, or no partner). */
  relation_status_id: number | null;
  relation_active: boolean | null;
  /** null when the supplier has no row in suppliers (its settings then stay as the catalogue meta has them). */
  settings_bp: string | null;
  required_onboarding_form: boolean | null;
  hide_additional_info: boolean | null;
  hide_gross_price: boolean | null;
  is_favourite: boolean;
}

/**
 * The offers of the products matching `productCondition` (a condition on products `p`, its parameters numbered from
 * $3 on), with the caller's state. $1 is the user, $2 the current partner (null: no relation, no favourite).
 */
export async function offerRowsWithCallerState(
  pool: pg.Pool,
  userId: string,
  bpNumber: string | null,
  productCondition: string,
  params: unknown[],
): Promise<OfferStateRow[]> {
  const { rows } = await pool.query<OfferStateRow>(
    `SELECT o.product_instance_id, o.product_no, o.supplier_bp_number, o.supplier_pid, o.product_data_source,
            o.unit_code, ${todayPriceColumns('o')}, o.price_quantity_unit, o.min_order_quantity, o.min_order_unit,
            o.time_to_delivery_days, o.note_of_use, o.accessories, o.spare_parts,
            sc.relation_status_id, sc.is_active AS relation_active,
            s.bp_number AS settings_bp, s.required_onboarding_form, s.hide_additional_info, s.hide_gross_price,
            EXISTS (SELECT 1 FROM favorite_products f
                     WHERE f.user_id = $1 AND f.bp_number = $2 AND f.product_instance_id = o.product_instance_id)
              AS is_favourite
       FROM product_offers o
       ${todayPriceJoin('o')}
       LEFT JOIN supplier_customers sc ON sc.buyer_bp_number = $2 AND sc.supplier_bp_number = o.supplier_bp_number
       LEFT JOIN suppliers s ON s.bp_number = o.supplier_bp_number
      WHERE o.product_no IN (SELECT p.id FROM products p WHERE ${productCondition})`,
    [userId, bpNumber, ...params],
  );
  return rows;
}
