/** SQL fragments for the price of an offer valid today (used by the catalogue's and the carts' repositories). */

/**
 * The price block valid today (Europe/Berlin) of offer `o`: a supplier catalogue may deliver price
 * blocks that start later (catalogue_offer_prices, written by the catalogue import); once such a
 * block's day has come it is the price, instead of the one the offer row holds. Join as `fp`.
 */
export const todayPriceJoin = (o: string) => `LEFT JOIN LATERAL (
    SELECT f.net_price, f.gross_list_price, f.price_basis FROM catalogue_offer_prices f
     WHERE f.product_instance_id = ${o}.product_instance_id
       AND f.valid_from <= (now() AT TIME ZONE 'Europe/Berlin')::date
       AND (f.valid_to IS NULL OR f.valid_to >= (now() AT TIME ZONE 'Europe/Berlin')::date)
     ORDER BY f.valid_from DESC LIMIT 1) fp ON true`;

/** net_price, gross_list_price, price_basis and price_on_demand of offer `o` as valid today (with todayPriceJoin). */
export const todayPriceColumns = (o: string) =>
  `CASE WHEN fp.price_basis IS NULL THEN ${o}.net_price ELSE fp.net_price END AS net_price,
   CASE WHEN fp.price_basis IS NULL THEN ${o}.gross_list_price ELSE COALESCE(fp.gross_list_price, ${o}.gross_list_price) END AS gross_list_price,
   COALESCE(fp.price_basis, ${o}.price_basis) AS price_basis,
   CASE WHEN fp.price_basis IS NULL THEN ${o}.price_on_demand ELSE fp.net_price IS NULL END AS price_on_demand`;
