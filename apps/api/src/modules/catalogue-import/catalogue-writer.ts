/**
 * Writes parsed articles into the catalogue in large batches (50,000 by default): every article
 * becomes one text line of a COPY into a session-temporary staging table (pg-copy-streams), and
 * one set-based merge per batch upserts products and offers and computes the search vectors in SQL
 * (each distinct brand, category and description text once per batch); the vectors are staged and
 * published into product_search once, when the import ends (publishSearch). Articles
 * whose stored hash equals the file's are dropped from the staging table before the merge, so
 * re-importing a file changes nothing. Price updates are one `UPDATE … FROM` the staged batch.
 *
 * Articles are staged while the parser reads (Node resolves reference data, hashes and builds
 * search texts), and the previous batch is merged by Postgres at the same time.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { searchDocumentOf } from '../catalogue/search/indexer.ts';
import { normaliseCode } from '../catalogue/search/fold.ts';
import type { ImportedArticle, ImportedPrice, ImportTransaction } from './import.types.ts';
import { numericValue, type ReferenceData } from './reference-data.ts';
import { isUrl, type MediaStore } from './media-store.ts';

export interface BatchResult {
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  rejected: Rejection[];
  /** Notes on imported products (a medium not stored): listed with the rejections, not counted. */
  notes: Rejection[];
  changedProducts: number;
}

interface Rejection {
  position: number;
  productId: string | null;
  reason: string;
}

/** One batch of staged articles: COPY text plus what the merge needs besides them. */
export interface StagedBatch {
  /** COPY text in UTF-8 chunks of about 256 KB (outside the JS heap). */
  chunks: Buffer[];
  /** Lines in `chunks`. */
  lines: number;
  /** Several lines name the same manufacturer article (product id). */
  sharedProducts: boolean;
  /** Articles read (also rejected and duplicate ones). */
  read: number;
  /** Every supplier article number of the batch (rejected ones too): seen by a full catalogue. */
  pids: string[];
  rejected: Rejection[];
  notes: Rejection[];
  /** BMEcat mode="delete": withdrawn. */
  deletes: string[];
  /** Lines that carry only future price blocks: the offer keeps today's price. */
  keepsPrice: boolean;
  /** Lines with future price blocks. */
  futurePrices: boolean;
}

const REFERENCE_TYPES: Record<string, 'accessories' | 'spare_parts' | 'successors'> = {
  followup: 'successors',
  successor: 'successors',
  accessories: 'accessories',
  sparepart: 'spare_parts',
  spare_part: 'spare_parts',
  spareparts: 'spare_parts',
  consists_of: 'spare_parts',
};

/** Staging tables of this session; ON COMMIT DELETE ROWS: every batch is one transaction and starts empty. */
const STAGE = 'catalogue_import_stage';
const PRICE_STAGE = 'catalogue_import_price_stage';
const CHANGED = 'catalogue_import_changed';
const STAGE_TABLES = `
  CREATE TEMP TABLE IF NOT EXISTS ${STAGE} (
    pos integer, pid text, iid text, pid_norm text,
    product_id text, manufacturer_id text, manufacturer_pid text, mpid_norm text, gtin text, brand_no integer, model text,
    name text, descr text, ptype text, class_no integer, features text, leaf_no integer, acc text, spare text, media text,
    unit text, net numeric, basis numeric, gross numeric, has_price boolean, min numeric, days smallint, step numeric,
    content_unit text, valid_from date, valid_to date, scales text, hash text,
    doc_a text, doc_b text, doc_c text, doc_d text, succ text, future text, keep_price boolean
  ) ON COMMIT DELETE ROWS;
  CREATE TEMP TABLE IF NOT EXISTS ${PRICE_STAGE} (
    pos integer, pid text, net numeric, gross numeric, scales text, valid_from date, valid_to date, basis numeric,
    current boolean, future text, fchanged boolean
  ) ON COMMIT DELETE ROWS;
  CREATE TEMP TABLE IF NOT EXISTS ${CHANGED} (product_no integer) ON COMMIT DELETE ROWS`;

/** Creates the session's staging tables (idempotent). */
export async function prepareStaging(c: pg.PoolClient) {
  await c.query(STAGE_TABLES);
}

/** Drops them again before the connection goes back to the pool. */
export async function dropStaging(c: pg.PoolClient) {
  await c.query(`DROP TABLE IF EXISTS ${STAGE}, ${PRICE_STAGE}, ${CHANGED}`);
}

/** A field of a COPY text line: \N for null, backslash escapes for the separators. */
function field(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  const s = typeof value === 'string' ? value : String(value);
  return /[\\\t\n\r]/.test(s) ? s.replace(/[\\\t\n\r]/g, escapeChar) : s;
}
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const escapeChar = (c: string) => ESCAPES[c];
const line = (values: (string | number | boolean | null | undefined)[]) => values.map(field).join('\t') + '\n';

export class CatalogueWriter {
  private batch: StagedBatch = emptyBatch();
  private seen = new Set<string>();
  private products = new Set<string>();
  private pending: string[] = [];
  private pendingSize = 0;
  /** The supplier had future price blocks when the import began (they must be replaced by the file's). */
  hasFuturePrices = true;
  /** Milliseconds per merge step over the whole import (logged at the end: where the time goes). */
  readonly timings = new Map<string, number>();

  constructor(
    private readonly c: pg.PoolClient,
    private readonly supplier: string,
    private readonly supplierName: string,
    private readonly ref: ReferenceData,
    private readonly importId: number,
    private readonly transaction: ImportTransaction,
    /** A full catalogue that may withdraw offers: the article numbers of the file are recorded as seen. */
    private readonly recordSeen = false,
    /** Stores media delivered in the zip next to the XML (null: a plain file, media are references). */
    private readonly media: MediaStore | null = null,
  ) {}

  /** Articles staged since the last take(). */
  get size() {
    return this.batch.read;
  }

  /** Checks, resolves and stages one article (reference data new to the catalogue is created here). */
  async stage(a: ImportedArticle) {
    const b = this.batch;
    b.read++;
    if (a.supplierPid) b.pids.push(a.supplierPid);
    if (a.error)
      return void b.rejected.push({ position: a.position, productId: a.supplierPid || null, reason: a.error });
    if (this.seen.has(a.supplierPid))
      return void b.rejected.push({
        position: a.position,
        productId: a.supplierPid,
        reason: 'Die Artikelnummer kommt in der Datei mehrfach vor.',
      });
    this.seen.add(a.supplierPid);
    if (this.transaction === 'T_UPDATE_PRICES') {
      const p = a.price;
      if (!p && !a.futurePrices.length)
        b.rejected.push({
          position: a.position,
          productId: a.supplierPid,
          reason: 'Der Artikel enthält keinen Preis.',
        });
      else {
        if (a.futurePrices.length) b.futurePrices = true;
        this.push(
          line([
            a.position,
            a.supplierPid,
            p?.net ?? null,
            p?.gross ?? null,
            p?.scales.length ? JSON.stringify(p.scales) : null,
            p?.validFrom ?? null,
            p?.validTo ?? null,
            a.priceQuantity,
            p !== null,
            futureJson(a.futurePrices),
          ]),
        );
      }
    } else if (a.mode === 'delete') b.deletes.push(a.supplierPid);
    else this.push(await this.stageLine(a));
  }

  private push(text: string) {
    this.pending.push(text);
    this.pendingSize += text.length;
    this.batch.lines++;
    if (this.pendingSize >= 262_144) this.seal();
  }

  private seal() {
    if (this.pending.length) this.batch.chunks.push(Buffer.from(this.pending.join(''), 'utf8'));
    this.pending = [];
    this.pendingSize = 0;
  }

  /** The staged batch, handed to write(); staging goes on into a fresh one. */
  take(): StagedBatch {
    this.seal();
    const b = this.batch;
    this.batch = emptyBatch();
    this.seen = new Set();
    this.products = new Set();
    return b;
  }

  /** Runs a step of the import and adds its time to `timings`. */
  timedStep<T>(label: string, work: () => Promise<T>): Promise<T> {
    return this.timed(label, work);
  }

  private async timed<T>(label: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.timings.set(label, (this.timings.get(label) ?? 0) + performance.now() - started);
    }
  }

  /** Writes a staged batch; the caller wraps it in a transaction. */
  async write(b: StagedBatch): Promise<BatchResult> {
    const result: BatchResult = {
      created: 0,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      rejected: b.rejected,
      notes: b.notes,
      changedProducts: 0,
    };
    // Sorts and hashes of 50,000 staged rows stay in memory.
    await this.c.query(`SET LOCAL work_mem = '256MB'`);
    // Rejected articles keep their current offer: they count as seen for the withdrawal at the end.
    if (this.recordSeen && b.pids.length)
      await this.timed('seen', () =>
        this.c.query(
          'INSERT INTO catalogue_import_seen (import_id, supplier_pid) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
          [this.importId, b.pids],
        ),
      );
    if (this.transaction === 'T_UPDATE_PRICES') await this.updatePrices(b, result);
    else {
      await this.upsert(b, result);
      if (b.deletes.length) result.deleted += await withdrawOffers(this.c, this.supplier, this.importId, b.deletes);
    }
    return result;
  }

  private async copy(table: string, chunks: Buffer[], columns = '') {
    await this.timed('copy', () =>
      pipeline(Readable.from(chunks), this.c.query(copyFrom(`COPY ${table} ${columns} FROM STDIN`))),
    );
    // The COPY text is in Postgres now: its memory is free while the batch is merged.
    chunks.length = 0;
  }

  private async updatePrices(b: StagedBatch, result: BatchResult) {
    if (!b.lines) return;
    await this.copy(
      PRICE_STAGE,
      b.chunks,
      '(pos, pid, net, gross, scales, valid_from, valid_to, basis, current, future)',
    );
    const { rows: unknown } = await this.timed('unknown articles', () =>
      this.c.query<{ pos: number; pid: string }>(
        `SELECT t.pos, t.pid FROM ${PRICE_STAGE} t
        WHERE NOT EXISTS (SELECT 1 FROM product_offers o WHERE o.supplier_bp_number = $1 AND o.supplier_pid = t.pid)
        ORDER BY t.pos`,
        [this.supplier],
      ),
    );
    for (const r of unknown)
      result.rejected.push({
        position: r.pos,
        productId: r.pid,
        reason: `Der Artikel ${r.pid} ist im Katalog des Lieferanten nicht vorhanden.`,
      });
    // Future blocks that differ from the stored ones (compared as JSON, ascending by start).
    const futures = b.futurePrices || this.hasFuturePrices;
    if (futures)
      await this.timed('future prices', () =>
        this.c.query(
          `UPDATE ${PRICE_STAGE} t SET fchanged = true FROM product_offers o
            WHERE o.supplier_bp_number = $1 AND o.supplier_pid = t.pid
              AND COALESCE((SELECT jsonb_agg(jsonb_build_object('from', f.valid_from, 'to', f.valid_to, 'net', f.net_price,
                                                                'gross', f.gross_list_price, 'scales', f.price_scales) ORDER BY f.valid_from)
                              FROM catalogue_offer_prices f WHERE f.product_instance_id = o.product_instance_id), '[]'::jsonb)
                  IS DISTINCT FROM COALESCE(t.future::jsonb, '[]'::jsonb)`,
          [this.supplier],
        ),
      );
    // Today's price where the file has one (t.current); an article with only later blocks keeps it.
    const { rowCount } = await this.timed('offer prices', () =>
      this.c.query(
        `WITH changed AS (
         UPDATE product_offers o
            SET net_price = CASE WHEN t.current THEN t.net ELSE o.net_price END,
                gross_list_price = CASE WHEN t.current THEN COALESCE(t.gross, o.gross_list_price) ELSE o.gross_list_price END,
                price_scales = CASE WHEN t.current THEN t.scales::jsonb ELSE o.price_scales END,
                price_valid_from = CASE WHEN t.current THEN t.valid_from ELSE o.price_valid_from END,
                price_valid_to = CASE WHEN t.current THEN t.valid_to ELSE o.price_valid_to END,
                price_basis = CASE WHEN t.current THEN COALESCE(t.basis, o.price_basis) ELSE o.price_basis END,
                price_on_demand = CASE WHEN t.current THEN false ELSE o.price_on_demand END, import_hash = NULL
           FROM ${PRICE_STAGE} t
          WHERE o.supplier_bp_number = $1 AND o.supplier_pid = t.pid
            AND (t.fchanged OR t.current AND
                 (o.net_price, o.gross_list_price, o.price_scales, o.price_valid_from, o.price_valid_to, o.price_basis, o.price_on_demand)
                 IS DISTINCT FROM (t.net, COALESCE(t.gross, o.gross_list_price), t.scales::jsonb, t.valid_from, t.valid_to,
                                   COALESCE(t.basis, o.price_basis), false))
          RETURNING o.product_no)
       INSERT INTO ${CHANGED} SELECT product_no FROM changed`,
        [this.supplier],
      ),
    );
    if (futures)
      await this.timed('future prices', () =>
        replaceFuturePrices(
          this.c,
          PRICE_STAGE,
          'o.supplier_bp_number = $1 AND o.supplier_pid = t.pid AND t.fchanged',
          this.supplier,
          b.futurePrices,
        ),
      );
    const changed = rowCount ?? 0;
    const known = b.lines - unknown.length;
    result.updated += changed;
    result.unchanged += known - changed;
    result.changedProducts += changed;
    // A price update adds or removes no offer: of the search columns only the lowest price can change
    // (no supplier numbers aggregated), and only rows whose price moved are rewritten.
    if (changed)
      await this.timed('search prices', () =>
        this.c.query(
          `UPDATE product_search s SET price_cents = x.price
             FROM (SELECT o.product_no AS id,
                          round(min(o.net_price / o.price_basis) FILTER (WHERE o.net_price IS NOT NULL AND NOT o.price_on_demand) * 100)::int AS price
                     FROM product_offers o WHERE o.product_no IN (SELECT product_no FROM ${CHANGED}) GROUP BY o.product_no) x
            WHERE s.id = x.id AND s.price_cents IS DISTINCT FROM x.price`,
        ),
      );
  }

  private async stageLine(a: ImportedArticle): Promise<string> {
    const manufacturerName = a.manufacturerName ?? this.supplierName;
    const manufacturerId = await this.ref.manufacturer(manufacturerName);
    const brand = await this.ref.brand(manufacturerName, manufacturerId);
    const manufacturerPid = a.manufacturerPid ?? a.supplierPid;
    let classNo: number | null = null;
    let className: string | null = null;
    const featureValues: (number | null)[] = [];
    const alphanumeric: string[] = [];
    if (a.etimClass) {
      const cls = await this.ref.etimClass(a.etimClass);
      classNo = cls.classNo;
      className = cls.name;
      for (const f of a.features) {
        const feature = await this.ref.feature(f.id, f.value, f.unit);
        const slot = await this.ref.slot(cls, feature.featureNo);
        if (!slot) continue;
        if (feature.kind === 'N') featureValues[slot - 1] = numericValue(f.value);
        else {
          const value = await this.ref.value(f.value);
          featureValues[slot - 1] = value.valueNo;
          alphanumeric.push(value.text);
        }
      }
    }
    for (let k = 0; k < featureValues.length; k++) featureValues[k] ??= null;
    const leafNo = await this.ref.leafFor(classNo, a.groupIds);
    const media = [];
    for (const m of a.media) {
      const entry = {
        type: mediaType(m.type, m.purpose, m.source),
        file: m.source.split(/[\\/]/).pop() || m.source,
        description: m.description ?? '',
      };
      const stored = this.media && !isUrl(m.source) ? await this.media.resolve(m.source) : null;
      if (stored && 'stored' in stored) media.push({ ...entry, stored: stored.stored });
      else {
        if (stored) this.batch.notes.push({ position: a.position, productId: a.supplierPid, reason: stored.problem });
        // Not in the zip (or refused): kept as the reference the file gives.
        media.push({ ...entry, url: m.source });
      }
    }
    const productId = `${manufacturerId}~${manufacturerPid}`;
    if (this.products.has(productId)) this.batch.sharedProducts = true;
    else this.products.add(productId);
    // Positions differ between otherwise equal files; they must not make an article look changed.
    const position = a.position;
    a.position = 0;
    const hash = createHash('sha1')
      .update(JSON.stringify([a, productId, brand.brandNo, classNo, featureValues, leafNo]))
      .digest('base64');
    a.position = position;
    const doc = searchDocumentOf({
      productName: a.shortDescription ?? a.supplierPid,
      modelNumber: a.manufacturerTypeDescr,
      brandName: brand.name,
      series: null,
      className,
      leafName: this.ref.leafName(leafNo),
      productType: className,
      alphanumericValues: alphanumeric,
      productDescr: [a.longDescription, ...a.keywords].filter(Boolean).join(' '),
    });
    const p = a.price;
    const keepPrice = p === null && a.futurePrices.length > 0;
    if (keepPrice) this.batch.keepsPrice = true;
    if (a.futurePrices.length) this.batch.futurePrices = true;
    return line([
      position,
      a.supplierPid,
      `${this.supplier}~${a.supplierPid}`,
      normaliseCode(a.supplierPid),
      productId,
      manufacturerId,
      manufacturerPid,
      normaliseCode(manufacturerPid),
      a.gtin,
      brand.brandNo,
      a.manufacturerTypeDescr,
      a.shortDescription ?? a.supplierPid,
      a.longDescription,
      className,
      classNo,
      featureValues.map((v) => (v === null ? '' : String(v))).join(',') || null,
      leafNo,
      this.references(a, 'accessories'),
      this.references(a, 'spare_parts'),
      JSON.stringify(media),
      a.orderUnit ?? 'C62',
      p?.net ?? null,
      a.priceQuantity,
      p?.gross ?? null,
      p === null,
      a.minQuantity,
      a.deliveryDays,
      a.interval,
      a.contentUnit,
      p?.validFrom ?? null,
      p?.validTo ?? null,
      p?.scales.length ? JSON.stringify(p.scales) : null,
      hash,
      doc.a,
      doc.b,
      doc.c,
      doc.d,
      this.references(a, 'successors'),
      futureJson(a.futurePrices),
      keepPrice,
    ]);
  }

  private async upsert(b: StagedBatch, result: BatchResult) {
    if (!b.lines) return;
    await this.copy(STAGE, b.chunks);
    const c = this.c;
    // Same hash, and the product has its search row (published or staged by this import): nothing to
    // write, so re-importing a file changes nothing. After a crash the staged search rows are gone;
    // such products are written again rather than left unsearchable.
    const unchanged = await this.timed(
      'unchanged',
      async () =>
        (
          await c.query(
            `DELETE FROM ${STAGE} s USING product_offers o
              WHERE o.product_instance_id = s.iid AND o.import_hash = s.hash
                AND (EXISTS (SELECT 1 FROM product_search ps WHERE ps.id = o.product_no)
                     OR EXISTS (SELECT 1 FROM catalogue_import_search x WHERE x.import_id = $1 AND x.id = o.product_no))`,
            [this.importId],
          )
        ).rowCount ?? 0,
    );
    const { rows: counts } = await c.query<{ total: number; existing: number }>(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE EXISTS (SELECT 1 FROM product_offers o WHERE o.product_instance_id = s.iid))::int AS existing
         FROM ${STAGE} s`,
    );
    result.unchanged += unchanged;
    result.updated += counts[0].existing;
    result.created += counts[0].total - counts[0].existing;
    result.changedProducts += counts[0].total;
    if (!counts[0].total) return;
    const isUpdate = this.transaction === 'T_UPDATE_PRODUCTS';
    // Several supplier articles may name the same manufacturer article: the last one in the file wins
    // (the sort is only paid for when the batch has such articles).
    const perProduct = b.sharedProducts
      ? `(SELECT DISTINCT ON (product_id) * FROM ${STAGE} ORDER BY product_id, pos DESC)`
      : STAGE;

    // Articles with only future price blocks keep the offer's price of today.
    if (b.keepsPrice)
      await c.query(
        `UPDATE ${STAGE} t SET net = o.net_price, gross = o.gross_list_price, basis = o.price_basis, scales = o.price_scales::text,
                valid_from = o.price_valid_from, valid_to = o.price_valid_to, has_price = o.price_on_demand
           FROM product_offers o WHERE t.keep_price AND o.product_instance_id = t.iid`,
      );
    await this.timed('products', () =>
      c.query(
        `INSERT INTO products AS p (id, product_id, manufacturer_id, manufacturer_pid, manufacturer_pid_norm, gtin, brand_no, model_number,
           product_name, product_descr, product_type, class_no, feature_values, leaf_no, accessories, spare_parts, successors, media, updated_at)
         SELECT nextval('catalogue_product_no_seq'), t.product_id, t.manufacturer_id, t.manufacturer_pid, t.mpid_norm, t.gtin, t.brand_no,
           t.model, t.name, t.descr, t.ptype, t.class_no, COALESCE(string_to_array(t.features, ',', '')::real[], '{}'), t.leaf_no,
           COALESCE(string_to_array(t.acc, '|'), '{}'), COALESCE(string_to_array(t.spare, '|'), '{}'),
           COALESCE(string_to_array(t.succ, '|'), '{}'), t.media::jsonb, now()
         FROM ${perProduct} t
         ON CONFLICT (product_id) DO UPDATE SET gtin = COALESCE(EXCLUDED.gtin, p.gtin), brand_no = EXCLUDED.brand_no,
           model_number = COALESCE(EXCLUDED.model_number, p.model_number), product_name = EXCLUDED.product_name,
           product_descr = COALESCE(EXCLUDED.product_descr, p.product_descr), product_type = COALESCE(EXCLUDED.product_type, p.product_type),
           class_no = COALESCE(EXCLUDED.class_no, p.class_no),
           feature_values = CASE WHEN EXCLUDED.class_no IS NULL THEN p.feature_values ELSE EXCLUDED.feature_values END,
           leaf_no = EXCLUDED.leaf_no,
           accessories = CASE WHEN cardinality(EXCLUDED.accessories) > 0 OR NOT $1 THEN EXCLUDED.accessories ELSE p.accessories END,
           spare_parts = CASE WHEN cardinality(EXCLUDED.spare_parts) > 0 OR NOT $1 THEN EXCLUDED.spare_parts ELSE p.spare_parts END,
           successors = CASE WHEN cardinality(EXCLUDED.successors) > 0 OR NOT $1 THEN EXCLUDED.successors ELSE p.successors END,
           media = CASE WHEN jsonb_array_length(EXCLUDED.media) > 0 OR NOT $1 THEN EXCLUDED.media ELSE p.media END,
           updated_at = now()`,
        [isUpdate],
      ),
    );
    await this.timed('offers', async () => {
      await c.query(
        `INSERT INTO product_offers (product_instance_id, product_no, supplier_bp_number, supplier_pid, supplier_pid_norm, product_data_source,
           unit_code, net_price, price_basis, gross_list_price, price_on_demand, min_order_quantity, min_order_unit, time_to_delivery_days,
           quantity_interval, content_unit, price_valid_from, price_valid_to, price_scales, import_hash)
         SELECT t.iid, p.id, $1, t.pid, t.pid_norm, $2, t.unit, t.net, COALESCE(t.basis, 1), t.gross, t.net IS NULL AND t.has_price,
                COALESCE(t.min, 1), t.unit, t.days, t.step, t.content_unit, t.valid_from, t.valid_to, t.scales::jsonb, t.hash
           FROM ${STAGE} t JOIN products p ON p.product_id = t.product_id
         ON CONFLICT (product_instance_id) DO UPDATE SET product_no = EXCLUDED.product_no, unit_code = EXCLUDED.unit_code,
           net_price = EXCLUDED.net_price,
           price_basis = EXCLUDED.price_basis, gross_list_price = EXCLUDED.gross_list_price, price_on_demand = EXCLUDED.price_on_demand,
           min_order_quantity = EXCLUDED.min_order_quantity, min_order_unit = EXCLUDED.min_order_unit,
           time_to_delivery_days = EXCLUDED.time_to_delivery_days, quantity_interval = EXCLUDED.quantity_interval,
           content_unit = EXCLUDED.content_unit, price_valid_from = EXCLUDED.price_valid_from, price_valid_to = EXCLUDED.price_valid_to,
           price_scales = EXCLUDED.price_scales, import_hash = EXCLUDED.import_hash`,
        [this.supplier, this.ref.productDataSource],
      );
      // An offer that comes back after a withdrawal is live again.
      await c.query(
        `DELETE FROM catalogue_withdrawn_offers w USING ${STAGE} t
          WHERE w.supplier_bp_number = $1 AND w.product_instance_id = t.iid`,
        [this.supplier],
      );
    });
    // A supplier's first catalogue has no future prices stored yet: nothing to replace then.
    if (b.futurePrices || this.hasFuturePrices)
      await this.timed('future prices', () =>
        replaceFuturePrices(
          c,
          STAGE,
          'o.product_instance_id = t.iid AND o.supplier_bp_number = $1',
          this.supplier,
          b.futurePrices,
        ),
      );

    // Search vectors, set-based: brand, category and description texts repeat across products, so
    // each distinct one is parsed once per batch; the name (weight A) is parsed per product. They are
    // staged and published into product_search when the import ends (publishSearch).
    await this.timed('search vectors', () =>
      c.query(
        `WITH t AS (SELECT product_id, doc_a, doc_b, doc_c, doc_d FROM ${perProduct} x),
              b AS (SELECT x, setweight(to_tsvector('german_unaccent', x), 'B') AS v FROM (SELECT DISTINCT doc_b AS x FROM t) d),
              c AS (SELECT x, setweight(to_tsvector('german_unaccent', x), 'C') AS v FROM (SELECT DISTINCT doc_c AS x FROM t) d),
              d AS (SELECT x, setweight(to_tsvector('german_unaccent', x), 'D') AS v FROM (SELECT DISTINCT doc_d AS x FROM t) d)
         INSERT INTO catalogue_import_search AS s (import_id, id, vec)
         SELECT $1, p.id, setweight(to_tsvector('german_unaccent', t.doc_a), 'A') || b.v || c.v || d.v
           FROM t JOIN products p ON p.product_id = t.product_id
           JOIN b ON b.x = t.doc_b JOIN c ON c.x = t.doc_c JOIN d ON d.x = t.doc_d
         ON CONFLICT (import_id, id) DO UPDATE SET vec = EXCLUDED.vec`,
        [this.importId],
      ),
    );
  }

  /** References name the supplier's article numbers; the catalogue stores product ids. */
  private references(a: ImportedArticle, kind: 'accessories' | 'spare_parts' | 'successors'): string | null {
    const targets = a.references.filter((r) => REFERENCE_TYPES[r.type.toLowerCase()] === kind).map((r) => r.target);
    return targets.length ? targets.map((t) => `@${this.supplier}~${t}`).join('|') : null;
  }
}

const emptyBatch = (): StagedBatch => ({
  chunks: [],
  lines: 0,
  sharedProducts: false,
  read: 0,
  pids: [],
  rejected: [],
  notes: [],
  deletes: [],
  keepsPrice: false,
  futurePrices: false,
});

/** Future price blocks as the staging column carries them (JSON), null when there are none. */
function futureJson(blocks: ImportedPrice[]): string | null {
  return blocks.length
    ? JSON.stringify(
        blocks.map((b) => ({
          from: b.validFrom,
          to: b.validTo,
          net: b.net,
          gross: b.gross,
          scales: b.scales.length ? b.scales : null,
        })),
      )
    : null;
}

/**
 * Replaces the future price blocks of the staged offers by the file's (a file that lists none for an
 * offer removes its former ones). The staged rows `t` name their offer `o` by `join` (parameter $1:
 * the supplier); `basis` is the staged price quantity.
 */
async function replaceFuturePrices(
  c: pg.PoolClient,
  stage: string,
  join: string,
  supplier: string,
  anyFuture: boolean,
) {
  await c.query(
    `DELETE FROM catalogue_offer_prices f USING ${stage} t, product_offers o
      WHERE ${join} AND f.product_instance_id = o.product_instance_id`,
    [supplier],
  );
  if (!anyFuture) return;
  await c.query(
    `INSERT INTO catalogue_offer_prices (product_instance_id, valid_from, valid_to, net_price, gross_list_price, price_scales, price_basis)
     SELECT DISTINCT ON (o.product_instance_id, (x->>'from')::date)
            o.product_instance_id, (x->>'from')::date, (x->>'to')::date, (x->>'net')::numeric, (x->>'gross')::numeric,
            NULLIF(x->'scales', 'null'::jsonb), COALESCE(t.basis, o.price_basis)
       FROM ${stage} t JOIN product_offers o ON ${join}, jsonb_array_elements(t.future::jsonb) x
      WHERE t.future IS NOT NULL
      ORDER BY o.product_instance_id, (x->>'from')::date`,
    [supplier],
  );
}

function mediaType(mime: string, purpose: string | null, source: string): string {
  const p = (purpose ?? '').toLowerCase();
  if (p === 'data_sheet') return 'Datenblatt';
  if (p === 'instructions' || p === 'safety_data_sheet') return 'Montageanleitung';
  if (p === 'drawing' || p === 'dimensioned_drawing') return '2D';
  if (/\.(stp|step|igs|iges)$/i.test(source) || p === '3d') return '3C';
  if (mime.startsWith('image/') || /\.(jpe?g|png|gif|webp)$/i.test(source)) return 'picture';
  return 'Datenblatt';
}

/** Supplier numbers and lowest net price per unit (cents) of the products `ids` (a subquery), from their offers: one grouped pass. */
const offerAggregate = (ids: string) => `
  SELECT o.product_no AS id, array_agg(DISTINCT n.supplier_no ORDER BY n.supplier_no) AS nos,
         round(min(o.net_price / o.price_basis) FILTER (WHERE o.net_price IS NOT NULL AND NOT o.price_on_demand) * 100)::int AS price
    FROM product_offers o JOIN catalogue_supplier_numbers n ON n.bp_number = o.supplier_bp_number
   WHERE o.product_no IN (${ids}) GROUP BY o.product_no`;

/** Supplier numbers and lowest price of the search rows, from the products' current offers. */
export async function refreshSearchOffers(c: pg.PoolClient, productNos: number[]) {
  if (!productNos.length) return;
  await c.query(
    `UPDATE product_search s SET supplier_nos = x.nos, price_cents = x.price FROM (${offerAggregate('SELECT unnest($1::int[])')}) x
      WHERE s.id = x.id AND (s.supplier_nos, s.price_cents) IS DISTINCT FROM (x.nos, x.price)`,
    [productNos],
  );
  // A product without any offer left is not found by the search any more (the product row stays).
  await c.query(
    `DELETE FROM product_search s WHERE s.id = ANY($1) AND NOT EXISTS (SELECT 1 FROM product_offers o WHERE o.product_no = s.id)`,
    [productNos],
  );
}

/**
 * Publishes the search rows an import staged, set-based, in the import's last transaction: rows of
 * products already searchable are updated, new ones inserted ordered by category (one category's
 * words on neighbouring pages) with their place in German name order; other rows get a new place
 * only where it moved. Supplier numbers and lowest price come from the offers as they are now; a
 * product without offers (withdrawn meanwhile) gets no search row. Returns the rows published.
 */
export async function publishSearch(c: pg.PoolClient, importId: number): Promise<number> {
  const id = Number(importId);
  await c.query(
    `CREATE TEMP TABLE catalogue_import_publish ON COMMIT DROP AS
     SELECT x.id, x.vec, a.nos, a.price
       FROM catalogue_import_search x
       JOIN (${offerAggregate(`SELECT id FROM catalogue_import_search WHERE import_id = ${id}`)}) a ON a.id = x.id
      WHERE x.import_id = ${id}`,
  );
  const { rows } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM catalogue_import_publish');
  if (rows[0].n) {
    await c.query(
      `CREATE TEMP TABLE catalogue_import_ranks ON COMMIT DROP AS
       SELECT p.id, row_number() OVER (ORDER BY p.product_name COLLATE catalogue_de, p.id)::int AS rn
         FROM products p WHERE p.id IN (SELECT id FROM product_search UNION SELECT id FROM catalogue_import_publish)`,
    );
    const features = [1, 2, 3, 4, 5, 6, 7, 8];
    const rebuild = await dropSearchIndexesForBulkInsert(c, rows[0].n);
    await c.query(
      `UPDATE product_search s SET vec = x.vec, brand_no = p.brand_no, class_no = p.class_no, leaf_no = p.leaf_no,
              promo = p.is_promotion, supplier_nos = x.nos, price_cents = x.price, name_rank = r.rn,
              ${features.map((k) => `f${k} = p.feature_values[${k}]`).join(', ')}
         FROM catalogue_import_publish x JOIN products p ON p.id = x.id JOIN catalogue_import_ranks r ON r.id = x.id
        WHERE s.id = x.id`,
    );
    await c.query(
      `INSERT INTO product_search (id, rank, name_rank, vec, brand_no, class_no, leaf_no, promo, supplier_nos, price_cents,
                                   ${features.map((k) => `f${k}`).join(', ')})
       SELECT x.id, x.id, r.rn, x.vec, p.brand_no, p.class_no, p.leaf_no, p.is_promotion, x.nos, x.price,
              ${features.map((k) => `p.feature_values[${k}]`).join(', ')}
         FROM catalogue_import_publish x JOIN products p ON p.id = x.id JOIN catalogue_import_ranks r ON r.id = x.id
        WHERE NOT EXISTS (SELECT 1 FROM product_search s WHERE s.id = x.id)
        ORDER BY p.leaf_no, x.id`,
    );
    if (rebuild.length) {
      await c.query(`SET LOCAL maintenance_work_mem = '256MB'`);
      for (const definition of rebuild) await c.query(definition);
    }
    await c.query(
      `UPDATE product_search s SET name_rank = r.rn FROM catalogue_import_ranks r
        WHERE s.id = r.id AND s.name_rank IS DISTINCT FROM r.rn`,
    );
  }
  await c.query('DELETE FROM catalogue_import_search WHERE import_id = $1', [id]);
  return rows[0].n;
}

/** Rows at least this many, and at least as many as the search index holds: rebuild instead of insert. */
const BULK_PUBLISH = 50_000;

/**
 * A publish that at least doubles the search index (a first large catalogue) builds the secondary
 * indexes of product_search afresh after the insert, as the catalogue loader does: sorting once
 * is far cheaper than inserting row by row, above all into the GIN index of the words. The drop and
 * the rebuild are in the import's last transaction (a failure rolls both back); searches wait for
 * that transaction meanwhile. Returns the definitions to run after the insert.
 */
async function dropSearchIndexesForBulkInsert(c: pg.PoolClient, rows: number): Promise<string[]> {
  if (rows < BULK_PUBLISH) return [];
  const { rows: size } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM product_search');
  if (size[0].n > rows) return [];
  const { rows: indexes } = await c.query<{ indexname: string; indexdef: string }>(
    `SELECT i.indexname, i.indexdef FROM pg_indexes i
      WHERE i.schemaname = current_schema() AND i.tablename = 'product_search'
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)`,
  );
  for (const i of indexes) await c.query(`DROP INDEX "${i.indexname.replace(/"/g, '""')}"`);
  return indexes.map((i) => i.indexdef);
}

/**
 * Withdraws offers: moved to catalogue_withdrawn_offers (not deleted for good) so past orders and
 * favourites still resolve their article data and a later import can bring them back.
 */
export async function withdrawOffers(
  c: pg.PoolClient,
  supplier: string,
  importId: number,
  pids: string[] | 'not-seen',
): Promise<number> {
  const condition =
    pids === 'not-seen'
      ? 'NOT EXISTS (SELECT 1 FROM catalogue_import_seen s WHERE s.import_id = $2 AND s.supplier_pid = o.supplier_pid)'
      : 'o.supplier_pid = ANY($3)';
  const { rows } = await c.query<{ product_no: number }>(
    `WITH gone AS (DELETE FROM product_offers o WHERE o.supplier_bp_number = $1 AND ${condition} RETURNING o.*)
     INSERT INTO catalogue_withdrawn_offers (product_instance_id, supplier_bp_number, product_no, offer, import_id)
     SELECT product_instance_id, supplier_bp_number, product_no, to_jsonb(gone), $2 FROM gone
     ON CONFLICT (product_instance_id) DO UPDATE SET offer = EXCLUDED.offer, import_id = EXCLUDED.import_id, withdrawn_at = now()
     RETURNING product_no`,
    pids === 'not-seen' ? [supplier, importId] : [supplier, importId, pids],
  );
  await refreshSearchOffers(c, [...new Set(rows.map((r) => r.product_no))]);
  return rows.length;
}
