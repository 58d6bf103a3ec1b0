/**
 * The media fetcher: queues the media an import's batches noted once the import has ended (catalogue_media_downloads),
 * works through the downloads, fetches each with MediaFetcherClient's checks, stores it like a
 * zip's medium (quota included) and shows it on the products that name the URL; a medium that cannot be fetched is a
 * warning on the import. Claims rows with a lease (FOR UPDATE SKIP LOCKED), so several processes may run it; a server
 * error or timeout is tried again later (at most MAX_ATTEMPTS), anything else fails at once.
 */
import type pg from 'pg';
import { catalogueImportFailureTexts } from '@shk/contracts';
import type { AppConfig } from '../../config.ts';
import { inClientTransaction } from '../../db/pool.ts';
import * as run from './import-run.repo.ts';
import * as repo from './media-downloads.repo.ts';
import { MediaFetchError, MediaFetcherClient } from './media-fetch.ts';
import { storeFetchedMedia } from './media-store.ts';
import { fileStorage } from '../storage/index.ts';
import { SecretBox } from '../transmission/index.ts';
import { mediaAccessOf } from './import-approval.repo.ts';

const MAX_ATTEMPTS = 3;
/** Downloads claimed (and fetched side by side) per round. */
const PER_ROUND = 4;
const RETRY_BASE_MS = 30_000;
/** Noted products moved into the download queue per transaction. */
const QUEUE_CHUNK = 20_000;

export class MediaFetcher {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly client: MediaFetcherClient;

  constructor(
    private readonly pool: pg.Pool,
    private readonly config: Pick<
      AppConfig,
      'dataDir' | 'storageBackend' | 'catalogueImport' | 'partnerStorageQuotaMb' | 'workflowSecretKey'
    >,
    databaseUrl: string | undefined,
    private readonly log: { info: (...a: unknown[]) => void; error: (...a: unknown[]) => void } = console,
  ) {
    const k = config.catalogueImport;
    this.client = new MediaFetcherClient({
      maxBytes: k.mediaMaxBytes,
      timeoutMs: k.mediaTimeoutMs,
      allow: k.mediaAllow,
      database: databaseOf(databaseUrl),
    });
  }

  start() {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.config.catalogueImport.mediaPollMs);
    this.timer.unref();
    void this.tick();
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  private tick() {
    if (this.running) return this.running;
    this.running = this.drain()
      .catch((err) => this.log.error({ err }, 'media fetcher failed'))
      .finally(() => (this.running = null));
    return this.running;
  }

  /** Queues the media of ended imports, then fetches rounds until nothing is due. */
  async drain() {
    await this.queueEndedImports();
    for (;;) {
      const claimed = await repo.claimDownloads(this.pool, PER_ROUND, this.config.catalogueImport.mediaTimeoutMs * 4);
      if (!claimed.length) return;
      await Promise.all(claimed.map((d) => this.download(d)));
    }
  }

  /**
   * Moves the products ended imports noted into the download queue, in short transactions of QUEUE_CHUNK each; another
   * process moving the same import meanwhile is skipped (it finishes the import).
   */
  async queueEndedImports() {
    for (const { id, supplier } of await repo.importsWithNotedMedia(this.pool)) {
      let shownStored = 0;
      for (;;) {
        const moved = await this.inSession(async (c) =>
          (await repo.tryLockNotedMedia(c, id)) ? repo.queueNotedMedia(c, id, supplier, QUEUE_CHUNK) : null,
        );
        if (!moved?.taken) break;
        shownStored += moved.shownStored;
      }
      // Products that show a file stored earlier changed: product pages are read under the catalogue version.
      if (shownStored) await this.inSession((c) => run.bumpCatalogueVersion(c, { recount: false }));
    }
  }

  private async download(d: repo.DownloadRow) {
    const texts = catalogueImportFailureTexts;
    try {
      const fetched = await this.client.fetch(d.url, {
        picture: d.picture,
        ...(await this.accessOf(d.supplier_bp_number)),
      });
      const stored = await storeFetchedMedia(
        this.pool,
        fileStorage({ config: this.config, pool: this.pool }),
        d.supplier_bp_number,
        fetched.body,
        fetched.contentType,
        this.config.partnerStorageQuotaMb * 1024 * 1024,
      );
      if (!stored) throw new MediaFetchError(texts.mediaReasons.quota(this.config.partnerStorageQuotaMb));
      await this.inSession(async (c) => {
        await repo.markStored(c, d.id, d.supplier_bp_number, stored.sha256);
        // Product pages and media are read under the catalogue version: they show the stored file at once.
        await run.bumpCatalogueVersion(c, { recount: false });
      });
    } catch (error) {
      const reason = error instanceof MediaFetchError ? error.message : texts.mediaReasons.failed;
      const retry = error instanceof MediaFetchError ? error.retry : true;
      if (retry && d.attempts < MAX_ATTEMPTS)
        await repo.retryLater(this.pool, d.id, reason, RETRY_BASE_MS * 2 ** (d.attempts - 1));
      else await this.inSession((c) => repo.markFailed(c, d.id, texts.mediaNotFetched(d.url, reason)));
      if (!(error instanceof MediaFetchError)) this.log.error({ err: error }, `media ${d.url}`);
    }
  }

  /** The supplier's media fallback address and token (decrypted; kept encrypted like workflow secrets). */
  private async accessOf(supplier: string): Promise<{ fallbackBaseUrl: string | null; token: string | null }> {
    const access = await mediaAccessOf(this.pool, supplier);
    return {
      fallbackBaseUrl: access.fallbackBaseUrl,
      token: access.sealedToken ? SecretBox.of(this.config).decrypt(access.sealedToken) : null,
    };
  }

  private async inSession<T>(work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await run.openSession(this.pool);
    try {
      return await inClientTransaction(c, () => work(c));
    } finally {
      c.release();
    }
  }
}

/** host:port of the database (embedded: DATABASE_URL is set by the runtime too), never a media source. */
function databaseOf(url: string | undefined): { host: string; port: number } | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return { host: u.hostname || 'localhost', port: Number(u.port || 5432) };
  } catch {
    return null;
  }
}
