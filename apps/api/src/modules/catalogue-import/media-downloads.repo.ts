/**
 * SQL of the media named by URL (media-fetcher.ts): the products an import's batches note, the download rows they
 * become once the import has ended, their claim by the fetcher, the result, and the products' media entries that show a stored file.
 */
import type pg from 'pg';
import { CATALOGUE_IMPORT_MAX_WARNINGS } from '@shk/contracts';
import type { Queryable } from '../../db/queryable.ts';

/** The transaction's list of the media references being queued (temporary; dropped at commit). */
const MEDIA_REFS = 'catalogue_import_media_refs';

/**
 * Notes the products a batch wrote — `stage` is the second session's search stage of the batch (position, product id;
 * the articles the merge found unchanged are out of it already) — for the media download queue, in that session's
 * transaction: a plain append, moved into the queue by queueNotedMedia once the import has ended.
 */
export async function noteMediaRefs(c: Queryable, stage: string, importId: number) {
  await c.query(
    `INSERT INTO catalogue_media_pending_refs (import_id, product_id, pos) SELECT $1, product_id, pos FROM ${stage}`,
    [importId],
  );
}

/** Ended imports (neither waiting nor running) whose noted media are still to be queued, oldest first. */
export async function importsWithNotedMedia(c: Queryable): Promise<{ id: number; supplier: string }[]> {
  const { rows } = await c.query<{ id: number; supplier: string }>(
    `SELECT i.id::int AS id, i.supplier_bp_number AS supplier FROM catalogue_imports i
      WHERE i.status NOT IN ('Pending', 'InProgress')
        AND EXISTS (SELECT 1 FROM catalogue_media_pending_refs r WHERE r.import_id = i.id)
      ORDER BY i.id`,
  );
  return rows;
}

/** Only one process moves an import's noted media at a time (transaction-level advisory lock). */
export async function tryLockNotedMedia(c: pg.PoolClient, importId: number): Promise<boolean> {
  const { rows } = await c.query<{ ok: boolean }>(
    `SELECT pg_try_advisory_xact_lock(hashtext('catalogue-media-refs'), $1::int) AS ok`,
    [importId],
  );
  return rows[0].ok;
}

/**
 * Moves up to `limit` of an import's noted products into the download queue (in the caller's transaction): one
 * download per supplier and URL (a failed one named again by a changed article is tried again), and which product
 * shows it, with the article's position and supplier article number for a warning. Media the supplier has stored
 * already are shown stored at once. Returns how many noted products were taken and how many products now show a
 * stored file.
 */
export async function queueNotedMedia(c: pg.PoolClient, importId: number, supplier: string, limit: number) {
  await c.query(
    `CREATE TEMP TABLE ${MEDIA_REFS} (product_id text, pos integer, pid text, url text, picture boolean) ON COMMIT DROP`,
  );
  const { rows } = await c.query<{ taken: number }>(
    // The supplier's article number by a join, not a lookup per row: after a bulk import the secondary index on
    // product_offers.product_no may still be missing, and a lookup per row would scan the offers once per product.
    `WITH taken AS (
       DELETE FROM catalogue_media_pending_refs
        WHERE ctid = ANY (ARRAY(SELECT ctid FROM catalogue_media_pending_refs WHERE import_id = $2 LIMIT $3))
       RETURNING product_id, pos),
     refs AS (
       INSERT INTO ${MEDIA_REFS}
       SELECT DISTINCT ON (u.url, t.product_id) t.product_id, t.pos, o.supplier_pid, u.url, u.type = 'picture'
         FROM taken t JOIN products p ON p.product_id = t.product_id
         LEFT JOIN product_offers o ON o.product_no = p.id AND o.supplier_bp_number = $1
         CROSS JOIN LATERAL jsonb_to_recordset(p.media) AS u(url text, stored jsonb, type text)
        WHERE u.url ~* '^https?://' AND u.stored IS NULL
        ORDER BY u.url, t.product_id, t.pos DESC, o.supplier_pid
       RETURNING 1)
     SELECT (SELECT count(*) FROM taken)::int AS taken`,
    [supplier, importId, limit],
  );
  await c.query(
    `WITH d AS (
       INSERT INTO catalogue_media_downloads AS d (supplier_bp_number, url, import_id, picture)
       SELECT $1, url, $2::bigint, bool_or(picture) FROM ${MEDIA_REFS} GROUP BY url
       ON CONFLICT (supplier_bp_number, url) DO UPDATE SET import_id = EXCLUDED.import_id,
              -- A product showing it as a picture makes it one (JPEG or PNG only), also when an older one named it otherwise.
              picture = d.picture OR EXCLUDED.picture,
              state = CASE WHEN d.state = 'failed' THEN 'pending' ELSE d.state END,
              attempts = CASE WHEN d.state = 'failed' THEN 0 ELSE d.attempts END,
              next_attempt_at = CASE WHEN d.state = 'failed' THEN now() ELSE d.next_attempt_at END,
              error = CASE WHEN d.state = 'failed' THEN NULL ELSE d.error END
       RETURNING id, url)
     INSERT INTO catalogue_media_download_products (download_id, product_id, import_id, position, supplier_pid)
     SELECT d.id, r.product_id, $2, r.pos, r.pid FROM ${MEDIA_REFS} r JOIN d ON d.url = r.url
     ON CONFLICT (download_id, product_id) DO UPDATE
        SET import_id = EXCLUDED.import_id, position = EXCLUDED.position, supplier_pid = EXCLUDED.supplier_pid`,
    [supplier, importId],
  );
  const shownStored = await showStoredMedia(
    c,
    supplier,
    `SELECT DISTINCT r.product_id FROM ${MEDIA_REFS} r
       JOIN catalogue_media_downloads d ON d.supplier_bp_number = $1 AND d.url = r.url AND d.state = 'stored'`,
  );
  return { taken: rows[0].taken, shownStored };
}

/**
 * The media entries naming a URL the supplier has stored get the stored file (the media route serves it); `products`
 * is a query of product ids (text, `product_id`; parameter $1 is the supplier).
 */
export async function showStoredMedia(
  c: Queryable,
  supplier: string,
  products: string,
  params: unknown[] = [],
): Promise<number> {
  const { rowCount } = await c.query(
    `UPDATE products p SET media = m.media, updated_at = now()
       FROM (SELECT p2.id,
                    jsonb_agg(CASE WHEN f.sha256 IS NOT NULL
                                   THEN x.e || jsonb_build_object('stored', jsonb_build_object(
                                          'supplier', f.supplier_bp_number, 'sha256', f.sha256,
                                          'contentType', f.content_type, 'size', f.size_bytes))
                                   ELSE x.e END ORDER BY x.k) AS media
               FROM products p2 CROSS JOIN LATERAL jsonb_array_elements(p2.media) WITH ORDINALITY AS x(e, k)
               LEFT JOIN catalogue_media_downloads d
                      ON d.supplier_bp_number = $1 AND d.url = x.e->>'url' AND d.state = 'stored' AND NOT x.e ? 'stored'
               LEFT JOIN catalogue_media_files f ON f.supplier_bp_number = d.supplier_bp_number AND f.sha256 = d.sha256
              WHERE p2.product_id IN (${products})
              GROUP BY p2.id) m
      WHERE p.id = m.id AND p.media IS DISTINCT FROM m.media`,
    [supplier, ...params],
  );
  return rowCount ?? 0;
}

export interface DownloadRow {
  id: string;
  supplier_bp_number: string;
  url: string;
  attempts: number;
  /** A product shows it as a picture: only JPEG or PNG are accepted. */
  picture: boolean;
}

/** Claims up to `limit` due downloads for `leaseMs` (another process skips them meanwhile). */
export async function claimDownloads(c: Queryable, limit: number, leaseMs: number): Promise<DownloadRow[]> {
  const { rows } = await c.query<DownloadRow>(
    `UPDATE catalogue_media_downloads SET lease_until = now() + $2 * interval '1 millisecond', attempts = attempts + 1
      WHERE id IN (SELECT id FROM catalogue_media_downloads
                    WHERE state = 'pending' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
                      -- After the import that queued it has ended: its messages do not change while it runs, and the
                      -- fetches do not compete with its batches.
                      AND NOT EXISTS (SELECT 1 FROM catalogue_imports i
                                       WHERE i.id = catalogue_media_downloads.import_id AND i.status IN ('Pending', 'InProgress'))
                    ORDER BY next_attempt_at, id LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING id, supplier_bp_number, url, attempts, picture`,
    [limit, leaseMs],
  );
  return rows;
}

/** The file is stored: the products that show the URL show it from now on. */
export async function markStored(c: Queryable, id: string, supplier: string, sha256: string) {
  await c.query(
    `UPDATE catalogue_media_downloads SET state = 'stored', sha256 = $2, error = NULL, lease_until = NULL, finished_at = now()
      WHERE id = $1`,
    [id, sha256],
  );
  await showStoredMedia(
    c,
    supplier,
    'SELECT product_id FROM catalogue_media_download_products WHERE download_id = $2',
    [id],
  );
}

/** Tried again at `retryInMs` (a server that may come back). */
export async function retryLater(c: Queryable, id: string, error: string, retryInMs: number) {
  await c.query(
    `UPDATE catalogue_media_downloads SET lease_until = NULL, error = $2, next_attempt_at = now() + $3 * interval '1 millisecond'
      WHERE id = $1`,
    [id, error, retryInMs],
  );
}

/**
 * The medium cannot be fetched: the download ends failed, and each import that named it for a product gets a warning
 * at that product's position (catalogue_import_warnings, apart from the rejections: the product was imported, without
 * this medium), counted in its warnings; the list keeps the first 1,000 of an import as the import's own warnings do.
 * The imports' warnings are numbered under a lock per import (fetches of the same product's media fail side by side).
 */
export async function markFailed(c: Queryable, id: string, reason: string) {
  await c.query(
    `UPDATE catalogue_media_downloads SET state = 'failed', error = $2, lease_until = NULL, finished_at = now() WHERE id = $1`,
    [id, reason],
  );
  const { rows } = await c.query<{ import_id: string }>(
    `SELECT DISTINCT p.import_id FROM catalogue_media_download_products p JOIN catalogue_imports i ON i.id = p.import_id
      WHERE p.download_id = $1 AND p.position IS NOT NULL ORDER BY p.import_id`,
    [id],
  );
  for (const { import_id: importId } of rows) {
    await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`catalogue-import-warnings:${importId}`]);
    // The same failure once per product and import (a download queued again by a resumed batch may fail again).
    const { rows: added } = await c.query<{ position: number; supplier_pid: string | null }>(
      `SELECT DISTINCT p.position, p.supplier_pid FROM catalogue_media_download_products p
        WHERE p.download_id = $1 AND p.import_id = $2 AND p.position IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM catalogue_import_warnings w
                           WHERE w.import_id = p.import_id AND w.position = p.position AND w.reason = $3)
        ORDER BY p.position`,
      [id, importId, reason],
    );
    if (!added.length) continue;
    await c.query(
      `INSERT INTO catalogue_import_warnings (import_id, position, seq, product_id, reason)
       SELECT $1, t.position,
              (SELECT COALESCE(max(w.seq), 0) + 1 FROM catalogue_import_warnings w WHERE w.import_id = $1 AND w.position = t.position),
              t.product_id, $4
         FROM unnest($2::int[], $3::text[]) WITH ORDINALITY AS t(position, product_id, n)
        WHERE t.n <= $5 - (SELECT count(*) FROM catalogue_import_warnings WHERE import_id = $1)`,
      [importId, added.map((a) => a.position), added.map((a) => a.supplier_pid), reason, CATALOGUE_IMPORT_MAX_WARNINGS],
    );
    await c.query('UPDATE catalogue_imports SET warning_count = warning_count + $2 WHERE id = $1', [
      importId,
      added.length,
    ]);
  }
}
