import { catalogueProblemTitles as titles, type Favourite, type Product } from '@shk/contracts';
import { HttpProblem } from '../../../http/problem.ts';
import type { CatalogueContext } from '../catalogue.context.ts';
import type { CallerContext } from '../offers.ts';
import { productByInstance } from '../product.service.ts';
import { deleteFavourite, listFavourites, saveFavourite, type FavouriteRow } from './favourites.repo.ts';

const toFavourite = (row: FavouriteRow, product: Product | null): Favourite => ({
  productInstanceId: row.product_instance_id,
  brandName: row.brand_name,
  articleNumber: row.article_number,
  gtin: row.gtin,
  articleCatalogNumber: row.article_catalog_number,
  imageUrl: row.image_url,
  articleShortDescription: row.article_short_description,
  ...(product ? { productDetails: product } : {}),
});

const notFound = (title: string, productInstanceId: string) =>
  new HttpProblem(404, title, { detail: `Produktinstanz ${productInstanceId}` });

/** Favourites per user and business partner; the product details are read live (absent: no longer offered). */
export class FavouritesService {
  constructor(private readonly catalogue: CatalogueContext) {}

  async list(ctx: CallerContext, bpNumber: string): Promise<Favourite[]> {
    const pool = this.catalogue.pool();
    const rows = await listFavourites(pool, ctx.userId, bpNumber);
    const products = await Promise.all(rows.map((r) => productByInstance(pool, ctx, r.product_instance_id)));
    return rows.map((r, i) => toFavourite(r, products[i]));
  }

  /** Idempotent: `created` is false when the offer already was a favourite. */
  async add(ctx: CallerContext, bpNumber: string, productInstanceId: string) {
    const pool = this.catalogue.pool();
    const product = await productByInstance(pool, ctx, productInstanceId);
    if (!product) throw notFound(titles.productNotFound, productInstanceId);
    const row: FavouriteRow = {
      product_instance_id: product.productInstanceId,
      brand_name: product.brandName,
      article_number: product.supplierPid,
      gtin: product.gtin,
      article_catalog_number: product.additionalPackage.articleNumberCatalogue,
      image_url: product.picturesPackage[0]?.url ?? null,
      article_short_description: product.productName,
    };
    const created = await saveFavourite(pool, ctx.userId, bpNumber, row);
    return { created, favourite: toFavourite(row, { ...product, isFavorite: true }) };
  }

  async remove(userId: string, bpNumber: string, productInstanceId: string) {
    if (!(await deleteFavourite(this.catalogue.pool(), userId, bpNumber, productInstanceId)))
      throw notFound(titles.favouriteNotFound, productInstanceId);
  }
}
