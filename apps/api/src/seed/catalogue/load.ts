/**
 * Bulk loader of the generated catalogue: replaces the catalogue tables (favourites stay), writes
 * products, offers and search rows with big multi-row INSERTs (unnest of arrays), pipelines
 * generation in Node with inserting in Postgres, and builds secondary indexes once at the end.
 * 1,000,000 products load in a few minutes.
 */
import type pg from 'pg';
import { reference } from './reference.ts';
import { brands as brandDefs } from './brands.ts';
import { DEFAULT_SEED, generateProduct } from './generate.ts';
import { searchDocumentOf } from '../../modules/catalogue/search/indexer.ts';
import { fold, foldedTokens } from '../../modules/catalogue/search/fold.ts';
import { PART_WORDS } from '../../modules/catalogue/search/decompound.ts';
import { isSeriesTerm, nameWords, TERM_KIND } from '../../modules/catalogue/search/search-terms.ts';
import type { CatalogueProduct } from '../../modules/catalogue/catalogue.types.ts';
import { recordAndDropForeignKeys, restoreImportConstraints } from '../../modules/catalogue-import/import-run.repo.ts';

export interface LoadOptions {
  products: number;
  seed?: number;
  batchSize?: number;
  /** Parallel insert sessions (to_tsvector is the expensive part; one per core). */
  workers?: number;
  log?: (message: string) => void;
}

/** Search rows are staged here, then copied ordered by category (UNLOGGED: no WAL). */
const STAGING = 'catalogue_load_search';

const CATALOGUE_TABLES = [
  'product_search_prices',
  'product_search',
  // future price blocks of supplier catalogue imports (they reference product_offers)
  'catalogue_offer_prices',
  'product_offers',
  'products',
  'brands',
  'manufacturers',
  'etim_class_features',
  'etim_values',
  'etim_features',
  'etim_classes',
  'product_tree',
  'catalogue_supplier_numbers',
  'search_terms',
];
/** Tables whose secondary indexes are dropped during a big load and rebuilt afterwards. */
const BULK_TABLES = ['products', 'product_offers', 'product_search'];

export async function loadCatalogue(pool: pg.Pool, options: LoadOptions): Promise<void> {
  const log = options.log ?? (() => {});
  const seed = options.seed ?? DEFAULT_SEED;
  const total = options.products;
  const batchSize = options.batchSize ?? 2_000;
  const started = Date.now();
  const client = await pool.connect();
  const workers = await Promise.all(
    Array.from({ length: Math.max(1, options.workers ?? (total >= 50_000 ? 2 : 1)) }, () => pool.connect()),
  );
  try {
    await client.query(`SET maintenance_work_mem = '512MB'`);
    await client.query('UPDATE catalogue_state SET loaded_at = NULL');
    await client.query(`TRUNCATE ${CATALOGUE_TABLES.join(', ')}`);
    await insertReferenceData(client);
    const indexDefinitions =
      total >= 50_000 ? await dropSecondaryIndexes(client) : (await restorePendingIndexes(client), []);
    await client.query(`DROP TABLE IF EXISTS ${STAGING}`);
    // The lowest price and the number of offers are staged with the search row and go to product_search_prices
    // (migrations 0205, 0230).
    await client.query(`CREATE UNLOGGED TABLE ${STAGING} (LIKE product_search, price_cents integer, offers integer)`);

    const terms = new TermCounter();
    // Postgres sessions work on earlier batches while Node generates the next one.
    const pending: Promise<unknown>[] = workers.map(() => Promise.resolve());
    for (let from = 0, k = 0; from < total; from += batchSize, k++) {
      const batch: CatalogueProduct[] = [];
      for (let i = from; i < Math.min(total, from + batchSize); i++) batch.push(generateProduct(i, total, seed));
      batch.forEach((p) => terms.add(p));
      const w = k % workers.length;
      await pending[w];
      pending[w] = insertBatch(workers[w], batch);
      if (k % 50 === 0 && from) log(`catalogue: ${from.toLocaleString('de-DE')} products generated`);
    }
    await Promise.all(pending);

    log('catalogue: ordering search rows by category and German name');
    await client.query(`
      INSERT INTO product_search (id, rank, name_rank, vec, brand_no, class_no, leaf_no, promo, supplier_nos, f1, f2, f3, f4, f5, f6, f7, f8)
      SELECT s.id, s.rank, row_number() OVER (ORDER BY p.product_name COLLATE catalogue_de, p.id), s.vec, s.brand_no, s.class_no, s.leaf_no,
             s.promo, s.supplier_nos, s.f1, s.f2, s.f3, s.f4, s.f5, s.f6, s.f7, s.f8
        FROM ${STAGING} s JOIN products p ON p.id = s.id
       ORDER BY s.leaf_no, s.id`);
    // A big load checks the prices' foreign key once, set-based, instead of a search row lookup per price row (the
    // key is recorded as an import's would be, so a load that breaks off leaves it to the next import or load).
    if (total >= 50_000) await recordAndDropForeignKeys(client, ['product_search_prices']);
    await client.query(
      `INSERT INTO product_search_prices (id, price_cents, offers) SELECT id, price_cents, offers FROM ${STAGING} ORDER BY id`,
    );
    await restoreImportConstraints(client);
    await client.query(`DROP TABLE ${STAGING}`);
    if (indexDefinitions.length) {
      log(`catalogue: building ${indexDefinitions.length} indexes`);
      for (const definition of indexDefinitions) await client.query(definition);
      await client.query('DROP TABLE catalogue_load_indexes');
    }
    await insertTerms(client, terms);
    await client.query('UPDATE catalogue_state SET version = version + 1, products = $1, loaded_at = now()', [total]);
    await client.query(`VACUUM (ANALYZE) ${[...BULK_TABLES, 'search_terms'].join(', ')}`);
    log(
      `catalogue: ${total.toLocaleString('de-DE')} products loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    client.release();
    workers.forEach((w) => w.release());
  }
}

/** Whether a complete catalogue is present (a load interrupted half-way does not count). */
export async function catalogueLoaded(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ loaded: boolean }>('SELECT loaded_at IS NOT NULL AS loaded FROM catalogue_state');
  return rows[0]?.loaded ?? false;
}

/**
 * Drops the secondary indexes for the bulk insert. Their definitions are kept in a table first, so a
 * load that is interrupted half-way still rebuilds them on the next run.
 */
async function dropSecondaryIndexes(client: pg.PoolClient): Promise<string[]> {
  await client.query('CREATE TABLE IF NOT EXISTS catalogue_load_indexes (indexdef text PRIMARY KEY)');
  const { rows } = await client.query<{ indexname: string; indexdef: string }>(
    `SELECT i.indexname, i.indexdef FROM pg_indexes i
      WHERE i.schemaname = current_schema() AND i.tablename = ANY($1)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    [BULK_TABLES],
  );
  await client.query('INSERT INTO catalogue_load_indexes SELECT unnest($1::text[]) ON CONFLICT DO NOTHING', [
    rows.map((r) => r.indexdef),
  ]);
  for (const r of rows) await client.query(`DROP INDEX ${quoteIdent(r.indexname)}`);
  return (
    await client.query<{ indexdef: string }>('SELECT indexdef FROM catalogue_load_indexes ORDER BY indexdef')
  ).rows.map((r) => r.indexdef);
}

/** Rebuilds indexes a previous, interrupted load left dropped (also for small loads). */
async function restorePendingIndexes(client: pg.PoolClient) {
  const { rows } = await client.query<{ exists: boolean }>(
    `SELECT to_regclass('catalogue_load_indexes') IS NOT NULL AS exists`,
  );
  if (!rows[0].exists) return;
  for (const { indexdef } of (await client.query<{ indexdef: string }>('SELECT indexdef FROM catalogue_load_indexes'))
    .rows) {
    await client.query(indexdef.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS '));
  }
  await client.query('DROP TABLE catalogue_load_indexes');
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function insertReferenceData(client: pg.PoolClient) {
  const ref = reference();
  const { rows: known } = await client.query<{ bp_number: string }>(
    'SELECT bp_number FROM business_partners WHERE bp_number = ANY($1)',
    [[...ref.supplierNumbers.keys()]],
  );
  const knownBps = new Set(known.map((r) => r.bp_number));
  for (const [bp, no] of ref.supplierNumbers) {
    if (!knownBps.has(bp)) throw new Error(`Lieferant ${bp} fehlt – bitte zuerst die Demo-Welt anlegen.`);
    await client.query('INSERT INTO catalogue_supplier_numbers (supplier_no, bp_number) VALUES ($1, $2)', [no, bp]);
  }
  for (const b of ref.brands) {
    await client.query('INSERT INTO manufacturers (manufacturer_id, name, supplier_bp_number) VALUES ($1, $2, $3)', [
      b.manufacturerId,
      b.def.manufacturer,
      b.def.supplier ?? null,
    ]);
    await client.query('INSERT INTO brands (brand_no, name, manufacturer_id) VALUES ($1, $2, $3)', [
      b.brandNo,
      b.def.name,
      b.manufacturerId,
    ]);
  }
  for (const n of ref.tree) {
    await client.query(
      'INSERT INTO product_tree (node_no, element_id, parent_no, type, name, sort) VALUES ($1, $2, $3, $4, $5, $6)',
      [n.nodeNo, n.elementId, n.parentNo, n.type, n.name, n.sort],
    );
  }
  for (const f of ref.features) {
    await client.query(
      'INSERT INTO etim_features (feature_no, feature_id, description, kind, unit_code) VALUES ($1, $2, $3, $4, $5)',
      [f.featureNo, f.def.id, f.def.name, f.def.kind, f.def.unit ?? null],
    );
  }
  for (const [text, v] of ref.values) {
    await client.query('INSERT INTO etim_values (value_no, value_id, description) VALUES ($1, $2, $3)', [
      v.valueNo,
      v.valueId,
      text,
    ]);
  }
  for (const leaf of ref.leaves) {
    await client.query('INSERT INTO etim_classes (class_no, class_id, description) VALUES ($1, $2, $3)', [
      leaf.classNo,
      leaf.def.classId,
      leaf.def.className,
    ]);
    for (const s of leaf.slots) {
      await client.query('INSERT INTO etim_class_features (class_no, slot, feature_no) VALUES ($1, $2, $3)', [
        leaf.classNo,
        s.slot,
        s.featureNo,
      ]);
    }
  }
}

function columns<T>(rows: T[], pick: ((row: T) => unknown)[]): unknown[][] {
  return pick.map((f) => rows.map(f));
}

async function insertBatch(client: pg.PoolClient, batch: CatalogueProduct[]) {
  const ref = reference();
  await client.query(
    `INSERT INTO products (id, product_id, manufacturer_id, manufacturer_pid, manufacturer_pid_norm, gtin, brand_no, series, model_number,
       product_name, product_descr, marketing_text, note_of_use, product_type, article_number_catalogue, article_number_catalogue_norm,
       class_no, feature_values, commodity_group_descr, energy_efficiency_class, color, measure_a_mm, measure_b_mm, measure_c_mm,
       weight_kg, packaging_quantity, country_of_origin, standard_delivery_period, leaf_no, is_promotion, accessories, spare_parts, media)
     SELECT id, product_id, manufacturer_id, manufacturer_pid, manufacturer_pid_norm, gtin, brand_no, series, model_number,
       product_name, product_descr, marketing_text, note_of_use, product_type, article_number_catalogue, article_number_catalogue_norm,
       class_no, string_to_array(feature_values, ',')::real[], commodity_group_descr, energy_efficiency_class, color, measure_a_mm, measure_b_mm, measure_c_mm,
       weight_kg, packaging_quantity, country_of_origin, standard_delivery_period, leaf_no, is_promotion,
       string_to_array(accessories, '|'), string_to_array(spare_parts, '|'), media::jsonb
     FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::text[],
       $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[],
       $17::int[], $18::text[], $19::text[], $20::text[], $21::text[], $22::numeric[], $23::numeric[], $24::numeric[],
       $25::numeric[], $26::numeric[], $27::text[], $28::smallint[], $29::int[], $30::boolean[], $31::text[], $32::text[], $33::text[])
       AS t(id, product_id, manufacturer_id, manufacturer_pid, manufacturer_pid_norm, gtin, brand_no, series, model_number,
       product_name, product_descr, marketing_text, note_of_use, product_type, article_number_catalogue, article_number_catalogue_norm,
       class_no, feature_values, commodity_group_descr, energy_efficiency_class, color, measure_a_mm, measure_b_mm, measure_c_mm,
       weight_kg, packaging_quantity, country_of_origin, standard_delivery_period, leaf_no, is_promotion, accessories, spare_parts, media)`,
    columns(batch, [
      (p) => p.id,
      (p) => p.productId,
      (p) => p.manufacturerId,
      (p) => p.manufacturerPid,
      (p) => p.manufacturerPidNorm,
      (p) => p.gtin,
      (p) => p.brandNo,
      (p) => p.series,
      (p) => p.modelNumber,
      (p) => p.productName,
      (p) => p.productDescr,
      (p) => p.marketingText,
      (p) => p.noteOfUse,
      (p) => p.productType,
      (p) => p.articleNumberCatalogue,
      (p) => p.articleNumberCatalogue?.replace(/[^0-9A-Za-z]/g, '').toUpperCase() ?? null,
      (p) => p.classNo,
      (p) => p.featureValues.join(','),
      (p) => p.commodityGroupDescr,
      (p) => p.energyEfficiencyClass,
      (p) => p.color,
      (p) => p.measureAMm,
      (p) => p.measureBMm,
      (p) => p.measureCMm,
      (p) => p.weightKg,
      (p) => p.packagingQuantity,
      (p) => p.countryOfOrigin,
      (p) => p.standardDeliveryPeriod,
      (p) => p.leafNo,
      (p) => p.isPromotion,
      (p) => p.accessories.join('|'),
      (p) => p.spareParts.join('|'),
      (p) => JSON.stringify(p.media),
    ]),
  );

  const offers = batch.flatMap((p) => p.offers.map((o) => ({ ...o, productNo: p.id })));
  await client.query(
    `INSERT INTO product_offers (product_instance_id, product_no, supplier_bp_number, supplier_pid, supplier_pid_norm, product_data_source,
       unit_code, net_price, price_basis, price_quantity_unit, gross_list_price, price_on_demand, min_order_quantity, min_order_unit,
       time_to_delivery_days, note_of_use)
     SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::smallint[], $7::text[], $8::numeric[], $9::numeric[],
       $10::text[], $11::numeric[], $12::boolean[], $13::numeric[], $14::text[], $15::smallint[], $16::text[])`,
    columns(offers, [
      (o) => o.productInstanceId,
      (o) => o.productNo,
      (o) => o.supplierBpNumber,
      (o) => o.supplierPid,
      (o) => o.supplierPidNorm,
      (o) => o.productDataSource,
      (o) => o.unitCode,
      (o) => o.netPrice,
      (o) => o.priceBasis,
      (o) => o.priceQuantityUnit,
      (o) => o.grossListPrice,
      (o) => o.priceOnDemand,
      (o) => o.minOrderQuantity,
      (o) => o.minOrderUnit,
      (o) => o.timeToDeliveryDays,
      (o) => o.noteOfUse,
    ]),
  );

  const docs = batch.map(searchDocumentOf);
  const slot = (p: CatalogueProduct, k: number) => p.featureValues[k] ?? null;
  // Brand, category and description texts repeat across products: parse each distinct text once.
  const vectors = await parsedVectors(
    client,
    docs.flatMap((x) => [x.b, x.c, x.d]),
  );
  const [b, c, d] = (['b', 'c', 'd'] as const).map((field) => docs.map((x) => vectors.get(x[field])!));
  await client.query(
    `INSERT INTO ${STAGING} (id, rank, vec, brand_no, class_no, leaf_no, promo, supplier_nos, price_cents, offers, f1, f2, f3, f4, f5, f6, f7, f8)
     SELECT id, id, setweight(to_tsvector('german_unaccent', a), 'A') || setweight(b::tsvector, 'B') || setweight(c::tsvector, 'C') || setweight(d::tsvector, 'D'),
            brand_no, class_no, leaf_no, promo, string_to_array(supplier_nos, ',')::int[], price_cents, offers, f1, f2, f3, f4, f5, f6, f7, f8
       FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[], $9::boolean[], $10::text[], $11::int[],
                   $12::int[], $13::real[], $14::real[], $15::real[], $16::real[], $17::real[], $18::real[], $19::real[], $20::real[])
         AS t(id, a, b, c, d, brand_no, class_no, leaf_no, promo, supplier_nos, price_cents, offers, f1, f2, f3, f4, f5, f6, f7, f8)`,
    [
      batch.map((p) => p.id),
      docs.map((x) => x.a),
      b,
      c,
      d,
      batch.map((p) => p.brandNo),
      batch.map((p) => p.classNo),
      batch.map((p) => p.leafNo),
      batch.map((p) => p.isPromotion),
      batch.map((p) => p.offers.map((o) => ref.supplierNumbers.get(o.supplierBpNumber)).join(',')),
      batch.map(lowestPriceCents),
      batch.map((p) => p.offers.length),
      ...[0, 1, 2, 3, 4, 5, 6, 7].map((k) => batch.map((p) => slot(p, k))),
    ],
  );
}

/** tsvector (as text) of each distinct search text, parsed by Postgres once per load. */
const parsed = new Map<string, string>();

async function parsedVectors(client: pg.PoolClient, texts: string[]): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  const missing: string[] = [];
  for (const t of new Set(texts)) {
    const known = parsed.get(t);
    if (known === undefined) missing.push(t);
    else result.set(t, known);
  }
  if (missing.length) {
    const { rows } = await client.query<{ v: string }>(
      `SELECT to_tsvector('german_unaccent', t)::text AS v FROM unnest($1::text[]) WITH ORDINALITY AS u(t, ord) ORDER BY ord`,
      [missing],
    );
    if (parsed.size > 500_000) parsed.clear();
    missing.forEach((t, i) => {
      parsed.set(t, rows[i].v);
      result.set(t, rows[i].v);
    });
  }
  return result;
}

/** Lowest net list price per unit over the offers (the price slider's value), in cents. */
function lowestPriceCents(p: CatalogueProduct): number | null {
  const prices = p.offers.filter((o) => o.netPrice !== null).map((o) => (o.netPrice as number) / o.priceBasis);
  return prices.length ? Math.round(Math.min(...prices) * 100) : null;
}

/** Display words for suggestions and typo correction, counted while generating. */
class TermCounter {
  private readonly words = new Map<string, { display: Map<string, number>; kind: number; count: number }>();
  add(p: CatalogueProduct) {
    for (const word of nameWords(p.productName)) this.count(word, TERM_KIND.word);
  }
  count(display: string, kind: number, by = 1) {
    const key = fold(display);
    const entry = this.words.get(key) ?? { display: new Map(), kind, count: 0 };
    entry.count += by;
    entry.display.set(display, (entry.display.get(display) ?? 0) + by);
    this.words.set(key, entry);
  }
  rows(extra: { display: string; kind: number; count: number }[]) {
    for (const e of extra) {
      const key = fold(e.display);
      const existing = this.words.get(key);
      if (!existing) this.count(e.display, e.kind, e.count);
      else if (e.kind !== 5) {
        existing.kind = e.kind;
        existing.display.set(e.display, Number.MAX_SAFE_INTEGER);
      }
    }
    return [...this.words].map(([folded, e]) => ({
      term: [...e.display].sort((a, b) => b[1] - a[1])[0][0],
      folded,
      kind: e.kind,
      count: e.count,
    }));
  }
}

async function insertTerms(client: pg.PoolClient, counter: TermCounter) {
  const ref = reference();
  const { rows: brandCounts } = await client.query<{ name: string; series: string | null; n: number }>(
    `SELECT b.name, p.series, count(*)::int AS n FROM products p JOIN brands b USING (brand_no) GROUP BY b.name, p.series`,
  );
  const extra: { display: string; kind: number; count: number }[] = [];
  const brandTotals = new Map<string, number>();
  for (const r of brandCounts) {
    brandTotals.set(r.name, (brandTotals.get(r.name) ?? 0) + r.n);
    if (r.series && isSeriesTerm(r.series)) extra.push({ display: r.series, kind: 4, count: r.n });
  }
  for (const b of brandDefs) extra.push({ display: b.name, kind: 2, count: brandTotals.get(b.name) ?? 0 });
  for (const n of ref.tree) if (n.type !== 'root') extra.push({ display: n.name, kind: 3, count: 0 });
  // Part words let typo correction reach compound parts ('fentil' → 'ventil'); never suggested.
  for (const w of PART_WORDS) extra.push({ display: w, kind: 5, count: 0 });
  const rows = counter.rows(extra).filter((r) => foldedTokens(r.folded).length);
  // Duplicate display spellings of different folded keys cannot both be the primary key.
  const seen = new Set<string>();
  const unique = rows.filter((r) => (seen.has(r.term) ? false : (seen.add(r.term), true)));
  for (let k = 0; k < unique.length; k += 5_000) {
    const part = unique.slice(k, k + 5_000);
    await client.query(
      `INSERT INTO search_terms (term, folded, kind, doc_count) SELECT * FROM unnest($1::text[], $2::text[], $3::smallint[], $4::int[])`,
      [part.map((r) => r.term), part.map((r) => r.folded), part.map((r) => r.kind), part.map((r) => r.count)],
    );
  }
}
