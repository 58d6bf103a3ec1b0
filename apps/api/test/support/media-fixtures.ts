import { createHash } from 'node:crypto';
import { eventually, type TestApp } from './test-app.ts';
import { storedMediaKey } from '../../src/modules/catalogue/media/media.ts';
import { fileStorage } from '../../src/modules/storage/index.ts';
import { pdfBytes } from './supplier-fixtures.ts';

/**
 * A price list a supplier's catalogue delivered for one of its products (stored like a catalogue import stores a zip's
 * file): kind 'Preisliste', not public. Returns where the product's media name it.
 */
export async function addPriceList(
  t: Pick<TestApp, 'pool' | 'config'>,
  supplier: string,
  file = `preisliste-${supplier}.pdf`,
): Promise<{ productNo: number; file: string }> {
  const bytes = pdfBytes();
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  // Into the storage the portal is configured with (DATA_DIR or the database).
  await fileStorage(t).put(storedMediaKey(supplier, sha256), bytes);
  const entry = {
    type: 'Preisliste',
    file,
    description: 'Preisliste 2026',
    stored: { supplier, sha256, contentType: 'application/pdf', size: bytes.length },
  };
  const { rows } = await t.pool.query<{ id: number }>(
    `UPDATE products SET media = media || $2::jsonb
      WHERE id = (SELECT min(product_no) FROM product_offers WHERE supplier_bp_number = $1)
      RETURNING id`,
    [supplier, JSON.stringify([entry])],
  );
  return { productNo: rows[0].id, file };
}

/**
 * Imports a BMEcat of supplier 200001 as the administrator and waits until it is Completed, its noted media are queued
 * (at least `minQueued` downloads) and every download has ended (stored or failed). Returns the import's details.
 */
export async function importAndFetchMedia(
  t: TestApp,
  xml: string,
  options: { fileName: string; as: string; minQueued: number },
) {
  const form = new FormData();
  form.append('file', new Blob([xml]), options.fileName);
  const res = await t.request('POST', '/v1/Suppliers/200001/CatalogueImports', { as: options.as, body: form });
  if (res.status !== 202) throw new Error(`import not accepted: ${res.status} ${res.text}`);
  const url = `/v1/Suppliers/200001/CatalogueImports/${res.body.id}`;
  await eventually(async () => {
    const r = await t.request('GET', url, { as: options.as });
    return r.body.status === 'Completed' ? r.body : null;
  }, 30_000);
  await eventually(async () => {
    const { rows } = await t.pool.query(
      `SELECT (SELECT count(*) FROM catalogue_media_pending_refs)::int AS noted,
              (SELECT count(*) FROM catalogue_media_downloads WHERE supplier_bp_number = '200001')::int AS queued,
              (SELECT count(*) FROM catalogue_media_downloads
                WHERE supplier_bp_number = '200001' AND state = 'pending')::int AS pending`,
    );
    return rows[0].noted === 0 && rows[0].queued >= options.minQueued && rows[0].pending === 0;
  }, 30_000);
  return (await t.request('GET', url, { as: options.as })).body;
}

/** The product page of supplier 200001's offer `pid` for `as`, once it answers 200. */
export function productOf200001(t: TestApp, pid: string, as: string) {
  return eventually(async () => {
    const r = await t.request('GET', `/v1/Product?productInstanceId=200001~${pid}`, { as });
    return r.status === 200 ? r.body : null;
  }, 10_000);
}
