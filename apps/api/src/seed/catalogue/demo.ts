/** The demo catalogue: loaded on the first start and into the test template. */
import type { Db } from '../../db/pool.ts';
import { catalogueLoaded, loadCatalogue } from './load.ts';
import { addNewcomerOffers } from './newcomer-offers.ts';

/** About 20,000 products for `npm start` (DEMO_CATALOGUE_PRODUCTS overrides). */
export const DEMO_CATALOGUE_PRODUCTS = 20_000;
/** The test template's catalogue: small enough for fast tests, same generator. */
export const TEST_CATALOGUE_PRODUCTS = 2_500;

export async function seedDemoCatalogueIfEmpty(
  db: Db,
  log: (m: string) => void = () => {},
  products = DEMO_CATALOGUE_PRODUCTS,
): Promise<boolean> {
  if (await catalogueLoaded(db.$client)) return false;
  await loadCatalogue(db.$client, { products, log });
  await addNewcomerOffers(db.$client);
  return true;
}
