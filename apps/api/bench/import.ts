/**
 * npm run bench:import — supplier catalogue import at scale.
 *
 * 1. Fresh database on an embedded PostgreSQL under BENCH_DATA_DIR: demo world and the catalogue's
 *    reference data (tree, ETIM classes), no products.
 * 2. Writes a BMEcat 2005 T_NEW_CATALOG with BENCH_PRODUCTS (1,000,000) products with ETIM
 *    features, order details, staggered prices and a picture (generator streams to a file).
 * 3. Imports it through the CLI (npm run import) in its own process; wall time and peak RSS.
 * 4. Writes and imports a T_UPDATE_PRICES with BENCH_PRICES (100,000) prices.
 * 5. Checks that the search index matches the offers (search consistent afterwards).
 *
 * Env: BENCH_DATA_DIR (/tmp/shk-bench-import), BENCH_PG_PORT (55300), BENCH_PRODUCTS, BENCH_PRICES.
 * BENCH_REUSE=1 keeps the database of an earlier run when it already holds BENCH_PRODUCTS offers of the supplier
 * and runs only the price update (for iterating on it); BENCH_PRICE_ROUND (0) shifts the update's prices so that a
 * repeated update changes them again. BENCH_CPU_PROFILE names a directory for the CLI's CPU profiles (node --cpu-prof).
 * BENCH_PG_STATS=1: Postgres with pg_stat_statements (nested statements too); after each import the costliest
 * statements by execution time, with calls, rows and time per product.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { postgresCpuMs, processCpuMs, startBenchPostgres } from './bench-support.ts';
import { ensureDatabase } from '../src/db/bootstrap.ts';
import { createDb, createPool } from '../src/db/pool.ts';
import { migrate } from '../src/db/migrate.ts';
import { ensureFeatureSettings } from '../src/modules/settings/settings.service.ts';
import { seedDemoWorldIfEmpty } from '../src/seed/demo-world.ts';
import { loadCatalogue } from '../src/seed/catalogue/load.ts';
import { loadConfig } from '../src/config.ts';
import { MediaFetcher } from '../src/modules/catalogue-import/media-fetcher.ts';

const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/shk-bench-import';
const pgPort = Number(process.env.BENCH_PG_PORT ?? 55300);
const products = Number(process.env.BENCH_PRODUCTS ?? 1_000_000);
const prices = Math.min(products, Number(process.env.BENCH_PRICES ?? 100_000));
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SUPPLIER = '200001';
const priceRound = Number(process.env.BENCH_PRICE_ROUND ?? 0);

const PG_STATS = process.env.BENCH_PG_STATS === '1';
const server = await startBenchPostgres(path.join(dataDir, 'postgres'), pgPort, { pgStats: PG_STATS });
const dbName = 'bench_import';
const admin = createPool(server.url('postgres'), 1);
const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName])).rowCount === 1;
let reuse = false;
if (process.env.BENCH_REUSE === '1' && exists) {
  const probe = createPool(server.url(dbName), 1);
  const { rows } = await probe
    .query<{ n: number }>('SELECT count(*)::int AS n FROM product_offers WHERE supplier_bp_number = $1', [SUPPLIER])
    .catch(() => ({ rows: [{ n: 0 }] }));
  await probe.end();
  reuse = rows[0].n === products;
}
if (!reuse) await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
await admin.end();
await ensureDatabase(server.url('postgres'), dbName);
const databaseUrl = server.url(dbName);
const pool = createPool(databaseUrl, 4);
await migrate(pool);
const db = createDb(pool);
if (PG_STATS) await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
if (!reuse) {
  await ensureFeatureSettings(db);
  await seedDemoWorldIfEmpty(db, () => {});
  await loadCatalogue(pool, { products: 0 });
}
const { rows: classes } = await pool.query<{
  class_id: string;
  features: { id: string; kind: string; unit: string | null }[];
}>(
  `SELECT c.class_id, json_agg(json_build_object('id', f.feature_id, 'kind', f.kind, 'unit', f.unit_code) ORDER BY cf.slot) AS features
     FROM etim_classes c JOIN etim_class_features cf USING (class_no) JOIN etim_features f USING (feature_no) GROUP BY c.class_id ORDER BY c.class_id`,
);
const { rows: values } = await pool.query<{ value_id: string }>(
  'SELECT value_id FROM etim_values ORDER BY value_no LIMIT 200',
);

function gtin(n: number) {
  const body = `40${String(n).padStart(10, '0')}`;
  const sum = [...body].reverse().reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
  return body + ((10 - (sum % 10)) % 10);
}

async function writeFile(file: string, transaction: string, count: number, body: (i: number) => string) {
  const out = fs.createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(
    `<?xml version="1.0" encoding="UTF-8"?>\n<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">\n`,
  );
  await write(
    `<HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>BENCH</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION></CATALOG></HEADER>\n<${transaction}>\n`,
  );
  for (let i = 0; i < count; i++) await write(body(i));
  await write(`</${transaction}>\n</BMECAT>\n`);
  out.end();
  await once(out, 'finish');
  return fs.statSync(file).size;
}

const product = (i: number) => {
  const cls = classes[i % classes.length];
  const features = cls.features
    .map((f, k) =>
      f.kind === 'N'
        ? `<FEATURE><FNAME>${f.id}</FNAME><FVALUE>${(i % 97) + k}</FVALUE>${f.unit ? `<FUNIT>${f.unit}</FUNIT>` : ''}</FEATURE>`
        : `<FEATURE><FNAME>${f.id}</FNAME><FVALUE>${values[(i + k) % values.length].value_id}</FVALUE></FEATURE>`,
    )
    .join('');
  const price = (10 + (i % 500) + 0.99).toFixed(2);
  return `<PRODUCT mode="new"><SUPPLIER_PID>B-${i}</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT>Benchartikel ${i} Größe ${i % 40} Messing verchromt</DESCRIPTION_SHORT>
<DESCRIPTION_LONG>Artikel ${i} für die Sanitär- und Heizungsinstallation, geprüft nach DIN EN 1057.</DESCRIPTION_LONG>
<INTERNATIONAL_PID type="gtin">${gtin(i)}</INTERNATIONAL_PID><MANUFACTURER_PID>BM-${i}</MANUFACTURER_PID><MANUFACTURER_NAME>Benchwerk ${i % 25}</MANUFACTURER_NAME></PRODUCT_DETAILS>
<PRODUCT_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>ETIM-9.0</REFERENCE_FEATURE_SYSTEM_NAME><REFERENCE_FEATURE_GROUP_ID>${cls.class_id}</REFERENCE_FEATURE_GROUP_ID>${features}</PRODUCT_FEATURES>
<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT><PRICE_QUANTITY>1</PRICE_QUANTITY><QUANTITY_MIN>1</QUANTITY_MIN></PRODUCT_ORDER_DETAILS>
<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>${price}</PRICE_AMOUNT><LOWER_BOUND>1</LOWER_BOUND></PRODUCT_PRICE><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>${(Number(price) * 0.95).toFixed(2)}</PRICE_AMOUNT><LOWER_BOUND>10</LOWER_BOUND></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS>
<MIME_INFO><MIME><MIME_TYPE>image/jpeg</MIME_TYPE><MIME_SOURCE>https://media.example.com/b-${i}.jpg</MIME_SOURCE><MIME_PURPOSE>normal</MIME_PURPOSE></MIME></MIME_INFO></PRODUCT>\n`;
};
const priceUpdate = (i: number) => {
  const n = Math.floor((i * products) / prices);
  return `<PRODUCT mode="update"><SUPPLIER_PID>B-${n}</SUPPLIER_PID><PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>${(20 + priceRound + (n % 300) + 0.49).toFixed(2)}</PRICE_AMOUNT></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS></PRODUCT>\n`;
};

/**
 * Runs the CLI as its own process and samples its resident memory and CPU time; the CPU time of Postgres meanwhile
 * too (steadier than wall time on a shared machine).
 */
async function cli(file: string) {
  if (PG_STATS) await pool.query('SELECT pg_stat_statements_reset()');
  const started = performance.now();
  const pgCpuBefore = postgresCpuMs(path.join(dataDir, 'postgres'));
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROFILE] : []),
      // As `npm run import` starts it: the parser's short-lived strings die in a larger young generation.
      '--max-semi-space-size=64',
      '--import',
      'tsx',
      path.join(repoRoot, 'apps/api/src/tools/import-cli.ts'),
      '--supplier',
      SUPPLIER,
      file,
    ],
    {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  let peak = 0;
  let cliCpuMs = 0;
  const timer = setInterval(() => {
    const cpu = processCpuMs(child.pid!);
    if (!Number.isNaN(cpu)) cliCpuMs = cpu;
    try {
      const rss = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (rss) peak = Math.max(peak, Number(rss[1]) * 1024);
    } catch {
      /* exited */
    }
  }, 200);
  const [code] = await once(child, 'exit');
  clearInterval(timer);
  const seconds = (performance.now() - started) / 1000;
  // The CLI's backends end with it: their CPU counts in the postmaster's (children's) once it has reaped them.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const pgCpuMs = postgresCpuMs(path.join(dataDir, 'postgres')) - pgCpuBefore;
  const cpu = `CPU: CLI ${(cliCpuMs / 1000).toFixed(1)} s, Postgres ${(pgCpuMs / 1000).toFixed(1)} s`;
  // The CLI's log lines (progress, time per merge step) come before its JSON result.
  for (const l of output.slice(0, output.indexOf('{')).split('\n')) if (l.trim()) console.log(`  ${l}`);
  const result = JSON.parse(output.slice(output.indexOf('{')));
  if (code !== 0) throw new Error(`CLI exit ${code}: ${output}`);
  if (PG_STATS) await printStatements(result.counts.read);
  return { seconds, peakMb: Math.round(peak / 1024 / 1024), result, cpu, cliCpuMs, pgCpuMs };
}

/**
 * The import's costliest statements (pg_stat_statements, reset before the import): execution time in total and per
 * product, calls and rows. Execution time includes waits (locks, I/O); the CPU figures above are the comparable ones.
 */
async function printStatements(articles: number) {
  const { rows } = await pool.query<{ query: string; calls: string; rows: string; total_ms: number }>(
    `SELECT regexp_replace(query, '\\s+', ' ', 'g') AS query, calls, rows, total_exec_time AS total_ms
       FROM pg_stat_statements WHERE query NOT ILIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC LIMIT 15`,
  );
  console.log('  statements by execution time (pg_stat_statements):');
  for (const r of rows)
    console.log(
      `    ${(r.total_ms / 1000).toFixed(1).padStart(7)} s ${((r.total_ms * 1000) / Math.max(articles, 1)).toFixed(1).padStart(6)} µs/article ` +
        `${String(r.calls).padStart(6)} calls ${String(r.rows).padStart(9)} rows  ${r.query.slice(0, 160)}`,
    );
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
fs.mkdirSync(dataDir, { recursive: true });
const catalogueFile = path.join(dataDir, `catalogue-${products}.xml`);
let t = performance.now();
/** The line of the scale table (docs/performance.md) for this size: products, import rate, CLI peak RSS, load. */
let importRow = '';
if (reuse) console.log(`reusing the catalogue of ${products.toLocaleString('de-DE')} products (BENCH_REUSE)`);
else {
  const size = await writeFile(catalogueFile, 'T_NEW_CATALOG', products, product);
  console.log(
    `generated ${products.toLocaleString('de-DE')} products, ${mb(size)} MB in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  const full = await cli(catalogueFile);
  // CPU per product (µs) of the CLI and of Postgres: comparable between runs on a shared machine, unlike the wall time.
  const perProduct = (ms: number) => Math.round((ms * 1000) / products);
  importRow =
    `Scale row (import) | ${products.toLocaleString('de-DE')} | ${Math.round(products / (full.result.durationMs / 1000)).toLocaleString('de-DE')} products/s | ` +
    `CPU per product ${perProduct(full.cliCpuMs)} + ${perProduct(full.pgCpuMs)} = ${perProduct(full.cliCpuMs + full.pgCpuMs)} µs (CLI + Postgres) | ` +
    `${full.peakMb} MB | load ${os.loadavg()[0].toFixed(1)} |`;
  console.log(
    `T_NEW_CATALOG: ${full.result.counts.created.toLocaleString('de-DE')} created, ${full.result.counts.rejected} rejected, ` +
      `${full.seconds.toFixed(1)} s wall (import ${(full.result.durationMs / 1000).toFixed(1)} s) → ` +
      `${Math.round(products / (full.result.durationMs / 1000)).toLocaleString('de-DE')} products/s, peak RSS ${full.peakMb} MB; ${full.cpu}`,
  );
  await queueMedia();
}

/** The media fetcher's first step after an import: the products it noted become download rows (not fetched here). */
async function queueMedia() {
  const started = performance.now();
  const fetcher = new MediaFetcher(pool, loadConfig({ ...process.env, DATA_DIR: dataDir }), databaseUrl);
  await fetcher.queueEndedImports();
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM catalogue_media_download_products');
  console.log(
    `media queue after the import: ${rows[0].n.toLocaleString('de-DE')} products' pictures queued for download in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
const priceFile = path.join(dataDir, `prices-${prices}.xml`);
t = performance.now();
await writeFile(priceFile, 'T_UPDATE_PRICES', prices, priceUpdate);
const update = await cli(priceFile);
console.log(
  `T_UPDATE_PRICES: ${update.result.counts.updated.toLocaleString('de-DE')} updated, ${update.seconds.toFixed(1)} s wall ` +
    `(import ${(update.result.durationMs / 1000).toFixed(1)} s) → ${Math.round(prices / (update.result.durationMs / 1000)).toLocaleString('de-DE')} prices/s, peak RSS ${update.peakMb} MB; ${update.cpu}`,
);
const { rows: check } = await pool.query(
  `SELECT (SELECT count(*)::int FROM pg_indexes WHERE tablename = 'product_search') AS search_indexes,
          (SELECT count(*)::int FROM pg_constraint WHERE contype = 'f' AND convalidated
              AND conrelid IN ('products'::regclass, 'product_offers'::regclass, 'product_search'::regclass,
                               'product_search_prices'::regclass)) AS foreign_keys,
          (SELECT count(*)::int FROM catalogue_import_constraints) AS foreign_keys_pending,
          (SELECT count(*)::int FROM product_search WHERE name_rank IS NULL) AS search_rows_without_name_rank,
          (SELECT count(*)::int FROM product_offers WHERE supplier_bp_number = $1) AS offers,
          (SELECT count(*)::int FROM product_search) AS search_rows,
          (SELECT count(*)::int FROM product_search s LEFT JOIN product_search_prices sp ON sp.id = s.id
             JOIN product_offers o ON o.product_no = s.id
            WHERE sp.price_cents IS DISTINCT FROM round(o.net_price * 100)::int) AS price_mismatches,
          (SELECT count(*)::int FROM product_search_prices sp
            WHERE sp.offers <> (SELECT count(*) FROM product_offers o WHERE o.product_no = sp.id)) AS offer_count_mismatches`,
  [SUPPLIER],
);
console.log(`search consistent: ${JSON.stringify(check[0])}`);
if (importRow) console.log(`\n${importRow}`);
await pool.end();
await server.stop();
fs.rmSync(catalogueFile, { force: true });
fs.rmSync(priceFile, { force: true });
