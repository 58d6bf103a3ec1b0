/**
 * Writes a batch of parsed articles into the catalogue with a few multi-row statements
 * (INSERT … SELECT FROM unnest … ON CONFLICT): products, offers, search rows. An article whose
 * stored hash equals the file's is not written at all, so re-importing a file changes nothing.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { searchDocumentOf } from '../catalogue/search/indexer.ts';
import { normaliseCode } from '../catalogue/search/fold.ts';
import type { ImportedArticle, ImportTransaction } from './import.types.ts';
import { numericValue, type ReferenceData } from './reference-data.ts';

export interface BatchResult {
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  rejected: { position: number; productId: string | null; reason: string }[];
  changedProducts: number;
}

interface Row {
  a: ImportedArticle;
  productId: string;
  manufacturerId: string;
  manufacturerPid: string;
  brandNo: number;
  brandName: string;
  classNo: number | null;
  className: string | null;
  featureValues: (number | null)[];
  alphanumeric: string[];
  leafNo: number;
  media: { type: string; file: string; description: string; url: string }[];
  hash: string;
}

const REFERENCE_TYPES: Record<string, 'accessories' | 'spare_parts'> = {
  accessories: 'accessories',
  sparepart: 'spare_parts',
  spare_part: 'spare_parts',
  spareparts: 'spare_parts',
  consists_of: 'spare_parts',
};

export class CatalogueWriter {
  constructor(
    private readonly c: pg.PoolClient,
    private readonly supplier: string,
    private readonly supplierName: string,
    private readonly ref: ReferenceData,
    private readonly importId: number,
    private readonly transaction: ImportTransaction,
  ) {}

  async write(batch: ImportedArticle[]): Promise<BatchResult> {
    const result: BatchResult = { created: 0, updated: 0, unchanged: 0, deleted: 0, rejected: [], changedProducts: 0 };
    const good: ImportedArticle[] = [];
    const seen = new Set<string>();
    for (const a of batch) {
      if (a.error) result.rejected.push({ position: a.position, productId: a.supplierPid || null, reason: a.error });
      else if (seen.has(a.supplierPid))
        result.rejected.push({
          position: a.position,
          productId: a.supplierPid,
          reason: 'Die Artikelnummer kommt in der Datei mehrfach vor.',
        });
      else {
        seen.add(a.supplierPid);
        good.push(a);
      }
    }
    // Rejected articles keep their current offer: they count as seen for the withdrawal at the end.
    await this.markSeen(batch.map((a) => a.supplierPid).filter(Boolean));
    if (this.transaction === 'T_UPDATE_PRICES') await this.updatePrices(good, result);
    else {
      const deletes = good.filter((a) => a.mode === 'delete');
      await this.upsert(
        good.filter((a) => a.mode !== 'delete'),
        result,
      );
      if (deletes.length)
        result.deleted += await withdrawOffers(
          this.c,
          this.supplier,
          this.importId,
          deletes.map((a) => a.supplierPid),
        );
    }
    return result;
  }

  private async markSeen(pids: string[]) {
    if (this.transaction !== 'T_NEW_CATALOG' || !pids.length) return;
    await this.c.query(
      'INSERT INTO catalogue_import_seen (import_id, supplier_pid) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
      [this.importId, pids],
    );
  }

  private async updatePrices(articles: ImportedArticle[], result: BatchResult) {
    const priced = articles.filter((a) => a.price);
    for (const a of articles)
      if (!a.price)
        result.rejected.push({
          position: a.position,
          productId: a.supplierPid,
          reason: 'Der Artikel enthält keinen Preis.',
        });
    if (!priced.length) return;
    const pids = priced.map((a) => a.supplierPid);
    const { rows: existing } = await this.c.query<{ supplier_pid: string }>(
      'SELECT supplier_pid FROM product_offers WHERE supplier_bp_number = $1 AND supplier_pid = ANY($2)',
      [this.supplier, pids],
    );
    const known = new Set(existing.map((r) => r.supplier_pid));
    for (const a of priced)
      if (!known.has(a.supplierPid))
        result.rejected.push({
          position: a.position,
          productId: a.supplierPid,
          reason: `Der Artikel ${a.supplierPid} ist im Katalog des Lieferanten nicht vorhanden.`,
        });
    const rows = priced.filter((a) => known.has(a.supplierPid));
    const { rows: changed } = await this.c.query<{ product_no: number }>(
      `UPDATE product_offers o
          SET net_price = t.net, gross_list_price = COALESCE(t.gross, o.gross_list_price), price_scales = t.scales,
              price_valid_from = t.valid_from, price_valid_to = t.valid_to, price_basis = COALESCE(t.basis, o.price_basis),
              price_on_demand = false, import_hash = NULL
         FROM unnest($2::text[], $3::numeric[], $4::numeric[], $5::jsonb[], $6::date[], $7::date[], $8::numeric[])
              AS t(pid, net, gross, scales, valid_from, valid_to, basis)
        WHERE o.supplier_bp_number = $1 AND o.supplier_pid = t.pid
          AND (o.net_price, o.gross_list_price, o.price_scales, o.price_valid_from, o.price_valid_to, o.price_basis, o.price_on_demand)
              IS DISTINCT FROM (t.net, COALESCE(t.gross, o.gross_list_price), t.scales, t.valid_from, t.valid_to, COALESCE(t.basis, o.price_basis), false)
        RETURNING o.product_no`,
      [
        this.supplier,
        rows.map((a) => a.supplierPid),
        rows.map((a) => a.price!.net),
        rows.map((a) => a.price!.gross),
        rows.map((a) => (a.price!.scales.length ? JSON.stringify(a.price!.scales) : null)),
        rows.map((a) => a.price!.validFrom),
        rows.map((a) => a.price!.validTo),
        rows.map((a) => a.priceQuantity),
      ],
    );
    result.updated += changed.length;
    result.unchanged += rows.length - changed.length;
    result.changedProducts += changed.length;
    if (changed.length) await refreshSearchOffers(this.c, [...new Set(changed.map((r) => r.product_no))]);
  }

  private async resolve(a: ImportedArticle): Promise<Row> {
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
    const media = a.media.map((m) => ({
      type: mediaType(m.type, m.purpose, m.source),
      file: m.source.split(/[\\/]/).pop() || m.source,
      description: m.description ?? '',
      url: m.source,
    }));
    const row = {
      a,
      productId: `${manufacturerId}~${manufacturerPid}`,
      manufacturerId,
      manufacturerPid,
      brandNo: brand.brandNo,
      brandName: brand.name,
      classNo,
      className,
      featureValues,
      alphanumeric,
      leafNo,
      media,
      hash: '',
    };
    row.hash = createHash('sha1')
      .update(JSON.stringify([a, row.productId, brand.brandNo, classNo, featureValues, leafNo]))
      .digest('base64');
    return row;
  }

  private async upsert(articles: ImportedArticle[], result: BatchResult) {
    if (!articles.length) return;
    const rows: Row[] = [];
    for (const a of articles) {
      // Positions differ between otherwise equal files; they must not make an article look changed.
      const position = a.position;
      a.position = 0;
      const row = await this.resolve(a);
      a.position = position;
      rows.push(row);
    }
    const { rows: existing } = await this.c.query<{ supplier_pid: string; import_hash: string | null }>(
      'SELECT supplier_pid, import_hash FROM product_offers WHERE supplier_bp_number = $1 AND supplier_pid = ANY($2)',
      [this.supplier, rows.map((r) => r.a.supplierPid)],
    );
    const hashes = new Map(existing.map((r) => [r.supplier_pid, r.import_hash]));
    const changed = rows.filter((r) => {
      if (!hashes.has(r.a.supplierPid)) return (result.created++, true);
      if (hashes.get(r.a.supplierPid) === r.hash) return (result.unchanged++, false);
      return (result.updated++, true);
    });
    if (!changed.length) return;
    result.changedProducts += changed.length;
    const isUpdate = this.transaction === 'T_UPDATE_PRODUCTS';

    const { rows: ids } = await this.c.query<{ id: number; product_id: string }>(
      `INSERT INTO products AS p (id, product_id, manufacturer_id, manufacturer_pid, manufacturer_pid_norm, gtin, brand_no, model_number,
         product_name, product_descr, product_type, class_no, feature_values, leaf_no, accessories, spare_parts, media, updated_at)
       SELECT nextval('catalogue_product_no_seq'), t.product_id, t.manufacturer_id, t.manufacturer_pid, t.pid_norm, t.gtin, t.brand_no, t.model,
         t.name, t.descr, t.ptype, t.class_no, COALESCE(string_to_array(t.features, ',', '')::real[], '{}'), t.leaf_no,
         COALESCE(string_to_array(t.acc, '|'), '{}'), COALESCE(string_to_array(t.spare, '|'), '{}'), t.media::jsonb, now()
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[], $9::text[], $10::text[],
                   $11::int[], $12::text[], $13::int[], $14::text[], $15::text[], $16::text[])
         AS t(product_id, manufacturer_id, manufacturer_pid, pid_norm, gtin, brand_no, model, name, descr, ptype, class_no, features, leaf_no, acc, spare, media)
       ON CONFLICT (product_id) DO UPDATE SET gtin = COALESCE(EXCLUDED.gtin, p.gtin), brand_no = EXCLUDED.brand_no,
         model_number = COALESCE(EXCLUDED.model_number, p.model_number), product_name = EXCLUDED.product_name,
         product_descr = COALESCE(EXCLUDED.product_descr, p.product_descr), product_type = COALESCE(EXCLUDED.product_type, p.product_type),
         class_no = COALESCE(EXCLUDED.class_no, p.class_no),
         feature_values = CASE WHEN EXCLUDED.class_no IS NULL THEN p.feature_values ELSE EXCLUDED.feature_values END,
         leaf_no = EXCLUDED.leaf_no,
         accessories = CASE WHEN cardinality(EXCLUDED.accessories) > 0 OR NOT $17 THEN EXCLUDED.accessories ELSE p.accessories END,
         spare_parts = CASE WHEN cardinality(EXCLUDED.spare_parts) > 0 OR NOT $17 THEN EXCLUDED.spare_parts ELSE p.spare_parts END,
         media = CASE WHEN jsonb_array_length(EXCLUDED.media) > 0 OR NOT $17 THEN EXCLUDED.media ELSE p.media END,
         updated_at = now()
       RETURNING id, product_id`,
      [
        changed.map((r) => r.productId),
        changed.map((r) => r.manufacturerId),
        changed.map((r) => r.manufacturerPid),
        changed.map((r) => normaliseCode(r.manufacturerPid)),
        changed.map((r) => r.a.gtin),
        changed.map((r) => r.brandNo),
        changed.map((r) => r.a.manufacturerTypeDescr),
        changed.map((r) => r.a.shortDescription ?? r.a.supplierPid),
        changed.map((r) => r.a.longDescription),
        changed.map((r) => r.className),
        changed.map((r) => r.classNo),
        changed.map((r) => r.featureValues.map((v) => (v === null ? '' : String(v))).join(',') || null),
        changed.map((r) => r.leafNo),
        changed.map((r) => this.references(r.a, 'accessories')),
        changed.map((r) => this.references(r.a, 'spare_parts')),
        changed.map((r) => JSON.stringify(r.media)),
        isUpdate,
      ],
    );
    const productNo = new Map(ids.map((r) => [r.product_id, r.id]));
    const instance = (r: Row) => `${this.supplier}~${r.a.supplierPid}`;
    await this.c.query(
      `INSERT INTO product_offers (product_instance_id, product_no, supplier_bp_number, supplier_pid, supplier_pid_norm, product_data_source,
         unit_code, net_price, price_basis, gross_list_price, price_on_demand, min_order_quantity, min_order_unit, time_to_delivery_days,
         quantity_interval, content_unit, price_valid_from, price_valid_to, price_scales, import_hash)
       SELECT t.iid, t.product_no, $1, t.pid, t.pid_norm, $2, t.unit, t.net, COALESCE(t.basis, 1), t.gross, t.net IS NULL AND t.has_price,
              COALESCE(t.min, 1), t.unit, t.days, t.interval, t.content_unit, t.valid_from, t.valid_to, t.scales, t.hash
       FROM unnest($3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::numeric[], $9::numeric[], $10::numeric[], $11::boolean[],
                   $12::numeric[], $13::smallint[], $14::numeric[], $15::text[], $16::date[], $17::date[], $18::jsonb[], $19::text[])
         AS t(iid, product_no, pid, pid_norm, unit, net, basis, gross, has_price, min, days, interval, content_unit, valid_from, valid_to, scales, hash)
       ON CONFLICT (product_instance_id) DO UPDATE SET product_no = EXCLUDED.product_no, unit_code = EXCLUDED.unit_code,
         net_price = EXCLUDED.net_price,
         price_basis = EXCLUDED.price_basis, gross_list_price = EXCLUDED.gross_list_price, price_on_demand = EXCLUDED.price_on_demand,
         min_order_quantity = EXCLUDED.min_order_quantity, min_order_unit = EXCLUDED.min_order_unit,
         time_to_delivery_days = EXCLUDED.time_to_delivery_days, quantity_interval = EXCLUDED.quantity_interval,
         content_unit = EXCLUDED.content_unit, price_valid_from = EXCLUDED.price_valid_from, price_valid_to = EXCLUDED.price_valid_to,
         price_scales = EXCLUDED.price_scales, import_hash = EXCLUDED.import_hash`,
      [
        this.supplier,
        this.ref.productDataSource,
        changed.map(instance),
        changed.map((r) => productNo.get(r.productId)),
        changed.map((r) => r.a.supplierPid),
        changed.map((r) => normaliseCode(r.a.supplierPid)),
        changed.map((r) => r.a.orderUnit ?? 'C62'),
        changed.map((r) => r.a.price?.net ?? null),
        changed.map((r) => r.a.priceQuantity),
        changed.map((r) => r.a.price?.gross ?? null),
        changed.map((r) => r.a.price === null),
        changed.map((r) => r.a.minQuantity),
        changed.map((r) => r.a.deliveryDays),
        changed.map((r) => r.a.interval),
        changed.map((r) => r.a.contentUnit),
        changed.map((r) => r.a.price?.validFrom ?? null),
        changed.map((r) => r.a.price?.validTo ?? null),
        changed.map((r) => (r.a.price?.scales.length ? JSON.stringify(r.a.price.scales) : null)),
        changed.map((r) => r.hash),
      ],
    );
    // An offer that comes back after a withdrawal is live again.
    await this.c.query('DELETE FROM catalogue_withdrawn_offers WHERE product_instance_id = ANY($1)', [
      changed.map(instance),
    ]);

    const docs = changed.map((r) =>
      searchDocumentOf({
        productName: r.a.shortDescription ?? r.a.supplierPid,
        modelNumber: r.a.manufacturerTypeDescr,
        brandName: r.brandName,
        series: null,
        className: r.className,
        leafName: this.ref.leafName(r.leafNo),
        productType: r.className,
        alphanumericValues: r.alphanumeric,
        productDescr: [r.a.longDescription, ...r.a.keywords].filter(Boolean).join(' '),
      }),
    );
    // Brand and category texts repeat across products: Postgres parses each distinct one once per import.
    const vectors = await this.parsedVectors(docs.flatMap((d) => [d.b, d.c]));
    await this.c.query(
      `INSERT INTO product_search AS s (id, rank, vec, brand_no, class_no, leaf_no, promo, supplier_nos, price_cents, f1, f2, f3, f4, f5, f6, f7, f8)
       SELECT p.id, p.id,
              setweight(to_tsvector('german_unaccent', t.a), 'A') || setweight(t.b::tsvector, 'B')
                || setweight(t.c::tsvector, 'C') || setweight(to_tsvector('german_unaccent', t.d), 'D'),
              p.brand_no, p.class_no, p.leaf_no, p.is_promotion, COALESCE(x.nos, '{}'), x.price,
              p.feature_values[1], p.feature_values[2], p.feature_values[3], p.feature_values[4],
              p.feature_values[5], p.feature_values[6], p.feature_values[7], p.feature_values[8]
         FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[]) AS t(id, a, b, c, d)
         JOIN products p ON p.id = t.id
         LEFT JOIN (${OFFER_AGGREGATE}) x ON x.id = p.id
       ON CONFLICT (id) DO UPDATE SET vec = EXCLUDED.vec, brand_no = EXCLUDED.brand_no, class_no = EXCLUDED.class_no,
         leaf_no = EXCLUDED.leaf_no, supplier_nos = EXCLUDED.supplier_nos, price_cents = EXCLUDED.price_cents,
         f1 = EXCLUDED.f1, f2 = EXCLUDED.f2, f3 = EXCLUDED.f3, f4 = EXCLUDED.f4,
         f5 = EXCLUDED.f5, f6 = EXCLUDED.f6, f7 = EXCLUDED.f7, f8 = EXCLUDED.f8`,
      [
        changed.map((r) => productNo.get(r.productId)),
        docs.map((d) => d.a),
        docs.map((d) => vectors.get(d.b)),
        docs.map((d) => vectors.get(d.c)),
        docs.map((d) => d.d),
      ],
    );
  }

  private readonly vectorCache = new Map<string, string>();

  private async parsedVectors(texts: string[]): Promise<Map<string, string>> {
    if (this.vectorCache.size > 200_000) this.vectorCache.clear();
    const missing = [...new Set(texts)].filter((t) => !this.vectorCache.has(t));
    if (missing.length) {
      const { rows } = await this.c.query<{ v: string }>(
        `SELECT to_tsvector('german_unaccent', t)::text AS v FROM unnest($1::text[]) WITH ORDINALITY AS u(t, k) ORDER BY k`,
        [missing],
      );
      missing.forEach((t, k) => this.vectorCache.set(t, rows[k].v));
    }
    return this.vectorCache;
  }

  /** References name the supplier's article numbers; the catalogue stores product ids. */
  private references(a: ImportedArticle, kind: 'accessories' | 'spare_parts'): string | null {
    const targets = a.references.filter((r) => REFERENCE_TYPES[r.type.toLowerCase()] === kind).map((r) => r.target);
    return targets.length ? targets.map((t) => `@${this.supplier}~${t}`).join('|') : null;
  }
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

/** Supplier numbers and lowest price of the search rows, from the products' current offers. */
/** Supplier numbers and lowest net price per unit (cents) of products, from their offers: one grouped pass. */
const OFFER_AGGREGATE = `
  SELECT o.product_no AS id, array_agg(DISTINCT n.supplier_no ORDER BY n.supplier_no) AS nos,
         round(min(o.net_price / o.price_basis) FILTER (WHERE o.net_price IS NOT NULL AND NOT o.price_on_demand) * 100)::int AS price
    FROM product_offers o JOIN catalogue_supplier_numbers n ON n.bp_number = o.supplier_bp_number
   WHERE o.product_no = ANY($1) GROUP BY o.product_no`;

/** Supplier numbers and lowest price of the search rows, from the products' current offers. */
export async function refreshSearchOffers(c: pg.PoolClient, productNos: number[]) {
  if (!productNos.length) return;
  await c.query(
    `UPDATE product_search s SET supplier_nos = x.nos, price_cents = x.price FROM (${OFFER_AGGREGATE}) x
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
