/**
 * npm run seed -- --products N [--seed S] [--orders N]
 * Loads a generated catalogue of N products (default 20,000) into DATABASE_URL, or into the
 * embedded PostgreSQL under DATA_DIR (EMBEDDED_PG_PORT). Creates the demo world first if missing.
 * --orders N adds N supplier orders of order history over two years (dashboard and report volume);
 * with --orders alone the catalogue is left as it is.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/bootstrap.ts';
import { createDb, createPool } from '../db/pool.ts';
import { migrate } from '../db/migrate.ts';
import { ensureFeatureSettings } from '../modules/settings/settings.service.ts';
import { seedDemoWorldIfEmpty } from './demo-world.ts';
import { loadCatalogue } from './catalogue/load.ts';
import { DEMO_CATALOGUE_PRODUCTS } from './catalogue/demo.ts';
import { DEFAULT_SEED } from './catalogue/generate.ts';
import { loadOrderHistory } from './orders/history.ts';

const { values } = parseArgs({
  options: { products: { type: 'string' }, seed: { type: 'string' }, orders: { type: 'string' } },
});
const products = Number(values.products ?? DEMO_CATALOGUE_PRODUCTS);
const seed = Number(values.seed ?? DEFAULT_SEED);
const orders = values.orders === undefined ? 0 : Number(values.orders);
if (!Number.isInteger(orders) || orders < 0 || orders > 50_000_000) {
  console.error('--orders muss eine ganze Zahl zwischen 0 und 50.000.000 sein');
  process.exit(2);
}
if (!Number.isInteger(products) || products < 1 || products > 50_000_000) {
  console.error('--products muss eine ganze Zahl zwischen 1 und 50.000.000 sein');
  process.exit(2);
}

const config = loadConfig();
const database = await openDatabase(config);
const pool = createPool(database.url, 4);
try {
  await migrate(pool, (m) => console.log(m));
  const db = createDb(pool);
  await ensureFeatureSettings(db);
  await seedDemoWorldIfEmpty(db, (m) => console.log(m));
  if (values.products !== undefined || !orders)
    await loadCatalogue(pool, { products, seed, log: (m) => console.log(m) });
  if (orders) await loadOrderHistory(pool, { orders, seed, log: (m) => console.log(m) });
} finally {
  await pool.end();
  await database.stop();
}
