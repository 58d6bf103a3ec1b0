import { createHash } from 'node:crypto';
import type { TestApp } from './test-app.ts';
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
