/**
 * Media files delivered in a zip next to the BMEcat XML (MIME_SOURCE relative to the XML): checked
 * (allowed types, content matching the extension), stored once per supplier by content hash in the file storage
 * under 'catalogue-media/<bp>/<sha256>' (storage module: DATA_DIR or PostgreSQL) and served by the product media route. Their bytes count
 * towards the supplier's storage quota (hardening): a file that would exceed it is not stored, the
 * product is imported without it and the import lists a note. MIME_SOURCE given as a URL is fetched by the media
 * fetcher (media-fetcher.ts) and stored the same way (storeFetchedMedia); the media route never redirects to it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { fileTypeFromFile } from 'file-type';
import { PARTNER_STORAGE_QUOTA_MB, partnerStorageUsed } from '../../lib/uploads/storage-quota.ts';
import { storedMediaKey } from '../catalogue/index.ts';
import type { FileStorage } from '../storage/index.ts';
import { inClientTransaction } from '../../db/pool.ts';
import { openSession } from './import-run.repo.ts';
import { findMediaFile, insertMediaFile, lockSupplierStorage } from './catalogue-import.repo.ts';

/** What a stored medium adds to the product's media entry. */
export interface StoredMedia {
  supplier: string;
  sha256: string;
  contentType: string;
  size: number;
}

export type MediaResolution = { stored: StoredMedia } | { problem: string } | null;

/** Extensions a supplier's media may have, their content type, and the type file-type must find (binary formats). */
const ALLOWED: Record<string, { contentType: string; detected?: string[] }> = {
  jpg: { contentType: 'image/jpeg', detected: ['image/jpeg'] },
  jpeg: { contentType: 'image/jpeg', detected: ['image/jpeg'] },
  png: { contentType: 'image/png', detected: ['image/png'] },
  gif: { contentType: 'image/gif', detected: ['image/gif'] },
  webp: { contentType: 'image/webp', detected: ['image/webp'] },
  pdf: { contentType: 'application/pdf', detected: ['application/pdf'] },
  stp: { contentType: 'model/step' },
  step: { contentType: 'model/step' },
  igs: { contentType: 'model/iges' },
  iges: { contentType: 'model/iges' },
  dxf: { contentType: 'application/octet-stream' },
  dwg: { contentType: 'application/octet-stream' },
};

export const isUrl = (source: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(source);

export class MediaStore {
  /** Per source path of this import: files shared by many products are checked and stored once. */
  private resolved = new Map<string, Promise<MediaResolution>>();
  private used: number | null = null;

  constructor(
    private readonly c: pg.PoolClient,
    private readonly supplier: string,
    private readonly storage: FileStorage,
    /** The directory the zip was extracted to, and the XML's directory in it (MIME_SOURCE is relative to it). */
    private readonly zipDir: string,
    private readonly xmlDir: string,
    private readonly quotaBytes = PARTNER_STORAGE_QUOTA_MB * 1024 * 1024,
  ) {}

  /** Stores the medium `source` (a path in the zip); null when the zip does not contain it. */
  resolve(source: string): Promise<MediaResolution> {
    let r = this.resolved.get(source);
    if (!r) {
      r = this.store(source);
      this.resolved.set(source, r);
    }
    return r;
  }

  private async store(source: string): Promise<MediaResolution> {
    const relative = source.replace(/\\/g, '/').replace(/^\/+/, '');
    const file = [path.resolve(this.xmlDir, relative), path.resolve(this.zipDir, relative)].find(
      (f) => (f === this.zipDir || f.startsWith(this.zipDir + path.sep)) && fs.existsSync(f) && fs.statSync(f).isFile(),
    );
    if (!file) return null;
    const extension = path.extname(file).slice(1).toLowerCase();
    const kind = ALLOWED[extension];
    if (!kind) return { problem: `Die Mediendatei „${source}“ hat einen nicht erlaubten Dateityp.` };
    if (kind.detected) {
      const detected = await fileTypeFromFile(file);
      if (!detected || !kind.detected.includes(detected.mime))
        return { problem: `Der Inhalt der Mediendatei „${source}“ passt nicht zu ihrer Endung.` };
    }
    const hash = createHash('sha256');
    await pipeline(fs.createReadStream(file), hash);
    const sha256 = hash.digest('hex');
    const size = (await fs.promises.stat(file)).size;
    const known = await findMediaFile(this.c, this.supplier, sha256);
    const key = storedMediaKey(this.supplier, sha256);
    if (!known || !(await this.storage.stat(key))) {
      if (!known) {
        this.used ??= await partnerStorageUsed(this.c, this.supplier);
        if (this.used + size > this.quotaBytes)
          return {
            problem: `Die Mediendatei „${source}“ wurde nicht gespeichert: das Speicherkontingent des Lieferanten (${Math.round(this.quotaBytes / 1024 / 1024)} MB) ist ausgeschöpft.`,
          };
        this.used += size;
      }
      await this.storage.put(key, fs.createReadStream(file));
      await insertMediaFile(this.c, { supplier: this.supplier, sha256, contentType: kind.contentType, size });
    }
    return { stored: { supplier: this.supplier, sha256, contentType: kind.contentType, size } };
  }
}

/**
 * Stores a medium fetched by URL (media-fetcher.ts) once per supplier and content, like a zip's: its bytes count
 * towards the supplier's storage quota (checked under the supplier's quota lock, so two fetches at once cannot both
 * take the last megabytes). Returns the stored file, or null when the quota is exhausted.
 */
export async function storeFetchedMedia(
  pool: pg.Pool,
  storage: FileStorage,
  supplier: string,
  body: Buffer,
  contentType: string,
  quotaBytes = PARTNER_STORAGE_QUOTA_MB * 1024 * 1024,
): Promise<StoredMedia | null> {
  const sha256 = createHash('sha256').update(body).digest('hex');
  const stored = { supplier, sha256, contentType, size: body.length };
  const key = storedMediaKey(supplier, sha256);
  const c = await openSession(pool);
  try {
    return await inClientTransaction(c, async () => {
      await lockSupplierStorage(c, supplier);
      const known = await findMediaFile(c, supplier, sha256);
      if (!known && (await partnerStorageUsed(c, supplier)) + body.length > quotaBytes) return null;
      if (!known || !(await storage.stat(key))) await storage.put(key, body);
      await insertMediaFile(c, stored);
      return stored;
    });
  } finally {
    c.release();
  }
}
