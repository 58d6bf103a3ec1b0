/** Favourites per user and business partner, with a snapshot of the product for when it is gone. */
import type pg from 'pg';

export interface FavouriteRow {
  product_instance_id: string;
  brand_name: string | null;
  article_number: string | null;
  gtin: string | null;
  article_catalog_number: string | null;
  image_url: string | null;
  article_short_description: string | null;
}

export async function listFavourites(pool: pg.Pool, userId: string, bpNumber: string): Promise<FavouriteRow[]> {
  const { rows } = await pool.query<FavouriteRow>(
    `SELECT product_instance_id, brand_name, article_number, gtin, article_catalog_number, image_url, article_short_description
       FROM favorite_products WHERE user_id = $1 AND bp_number = $2 ORDER BY created_at DESC, product_instance_id`,
    [userId, bpNumber],
  );
  return rows;
}

/** Inserts or refreshes the snapshot; returns whether the favourite is new. */
export async function saveFavourite(
  pool: pg.Pool,
  userId: string,
  bpNumber: string,
  f: FavouriteRow,
): Promise<boolean> {
  const { rows } = await pool.query<{ inserted: boolean }>(
    `INSERT INTO favorite_products (user_id, bp_number, product_instance_id, brand_name, article_number, gtin, article_catalog_number, image_url, article_short_description)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (user_id, bp_number, product_instance_id) DO UPDATE SET brand_name = EXCLUDED.brand_name, article_number = EXCLUDED.article_number,
       gtin = EXCLUDED.gtin, article_catalog_number = EXCLUDED.article_catalog_number, image_url = EXCLUDED.image_url,
       article_short_description = EXCLUDED.article_short_description
     RETURNING (xmax = 0) AS inserted`,
    [
      userId,
      bpNumber,
      f.product_instance_id,
      f.brand_name,
      f.article_number,
      f.gtin,
      f.article_catalog_number,
      f.image_url,
      f.article_short_description,
    ],
  );
  return rows[0].inserted;
}

export async function deleteFavourite(
  pool: pg.Pool,
  userId: string,
  bpNumber: string,
  productInstanceId: string,
): Promise<boolean> {
  const { rowCount } = await pool.query(
    'DELETE FROM favorite_products WHERE user_id = $1 AND bp_number = $2 AND product_instance_id = $3',
    [userId, bpNumber, productInstanceId],
  );
  return (rowCount ?? 0) > 0;
}
