/** Product lookups for the product page: by product instance, by manufacturer data, all offers. */
import type pg from 'pg';
import { ID_SEPARATOR, type Product, type ProductDetails } from '@shk/contracts';
import type { CallerContext } from './offers.ts';
import { findOfferRow } from './offers.ts';
import { productRows } from './catalogue.repo.ts';
import { productEntity, productOffer, viewOfOffer, withRelatedProducts, type ProductRow } from './product-views.ts';
import { offersWithCallerState } from './product-offers.ts';

/** The product of an offer (a condition on products `p`; `$n` is the product instance id). */
const productOfInstance = (n: number) =>
  `p.id = (SELECT product_no FROM product_offers WHERE product_instance_id = $${n})`;

/** Splits a composite id at the first separator: bp/manufacturer ids never contain it, article numbers may. */
export function splitCompositeId(id: string): [string, string] | null {
  const at = id.indexOf(ID_SEPARATOR);
  if (at <= 0 || at === id.length - 1) return null;
  return [id.slice(0, at), id.slice(at + 1)];
}

async function productRow(pool: pg.Pool, id: number): Promise<ProductRow | null> {
  return (await productRows(pool, 'p.id = $1', [id]))[0] ?? null;
}

export async function productByInstance(
  pool: pg.Pool,
  ctx: CallerContext,
  productInstanceId: string,
): Promise<Product | null> {
  const offer = await findOfferRow(pool, productInstanceId);
  if (!offer) return null;
  const [row, view] = await Promise.all([productRow(pool, offer.product_no), viewOfOffer(pool, offer, ctx)]);
  return row ? withRelatedProducts(pool, productEntity(row, view, ctx), ctx) : null;
}

/** All offers of the offer's product, preferred first: the product row and the offers as two statements side by side. */
export async function productDetails(
  pool: pg.Pool,
  ctx: CallerContext,
  productInstanceId: string,
): Promise<ProductDetails | null> {
  const [rows, offers] = await Promise.all([
    productRows(pool, productOfInstance(1), [productInstanceId]),
    offersWithCallerState(pool, ctx, productOfInstance(3), [productInstanceId]),
  ]);
  const row = rows[0];
  if (!row) return null;
  const views = offers.get(row.id) ?? [];
  return { productId: row.product_id, productInstanceId, offers: views.map((v) => productOffer(row, v, ctx.meta)) };
}

/** The product of a manufacturer article; the given instance when it is one of its offers, else the preferred offer. */
export async function productByManufacturer(
  pool: pg.Pool,
  ctx: CallerContext,
  manufacturerId: string,
  manufacturerPid: string,
  productInstanceId?: string,
): Promise<Product | null> {
  const [rows, offers] = await Promise.all([
    productRows(pool, 'p.manufacturer_id = $1 AND p.manufacturer_pid = $2', [manufacturerId, manufacturerPid]),
    offersWithCallerState(pool, ctx, 'p.manufacturer_id = $3 AND p.manufacturer_pid = $4', [
      manufacturerId,
      manufacturerPid,
    ]),
  ]);
  const row = rows[0];
  if (!row) return null;
  const views = offers.get(row.id) ?? [];
  const chosen = views.find((v) => v.row.product_instance_id === productInstanceId) ?? views[0];
  return chosen ? withRelatedProducts(pool, productEntity(row, chosen, ctx), ctx) : null;
}
