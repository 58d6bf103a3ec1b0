/**
 * Writes parsed articles into the catalogue in large batches (50,000 by default): every article
 * becomes one text line of a COPY into a session-temporary staging table (pg-copy-streams), and
 * one set-based merge per batch upserts products and offers and computes the search vectors in SQL
 * (each distinct brand, category and description text once per batch); the vectors are computed by the import's
 * second session once the batch has committed, while the import session merges the next batch (`writeSearch`), staged
 * and published into product_search once, when the import ends (publishSearch). Articles
 * whose stored hash equals the file's are dropped from the staging table before the merge, so
 * re-importing a file changes nothing. Price updates are one `UPDATE … FROM` the staged batch.
 *
 * Articles are staged while the parser reads (Node resolves reference data, hashes and builds
 * search texts), and the previous batch is merged by Postgres at the same time.
 */
import { hash as digest } from 'node:crypto';
import { catalogueImportFailureTexts } from '@shk/contracts';
import type pg from 'pg';
import { inClientTransaction } from '../../db/pool.ts';
import { searchDocumentOf, normaliseCode } from '../catalogue/index.ts';
import type { ImportedArticle, ImportedPrice, ImportTransaction } from './import.types.ts';
import { numericValue, type ReferenceData } from './reference-data.ts';
import { isUrl, type MediaStore } from './media-store.ts';
import { checkOptionalFields, DEFAULT_UNIT } from './field-checks.ts';
import * as repo from './staging.repo.ts';
import * as prices from './import-prices.repo.ts';
import * as withdrawals from './withdrawals.repo.ts';

export interface BatchResult {
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  rejected: Rejection[];
  /** Warnings on imported products (a value left out, cut or defaulted; a medium not stored): kept apart from rejections. */
  notes: Rejection[];
  changedProducts: number;
  /** Products of a price batch whose search rows' lowest price is still to be written (by the second session). */
  searchPrices: prices.ChangedPrices | null;
  /** Search vectors of the batch's written products, still to be computed (by the second session, `writeSearch`). */
  searchVectors: SearchWork | null;
}

/** A committed batch's search texts, for the second session. */
export interface SearchWork {
  /** COPY text of the search stage (pos, product id, texts A–D) in chunks of about 256 KB. */
  chunks: Buffer[];
  /** Positions of the articles the merge dropped as unchanged: no vector for them. */
  dropped: number[];
  sharedProducts: boolean;
  /** An article of the batch names a medium by http(s) URL. */
  namesMediaUrls: boolean;
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
  /** COPY text of the articles' search texts (the second session's stage), likewise. */
  searchChunks: Buffer[];
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
  /** Lines that name a medium by http(s) URL. */
  namesMediaUrls: boolean;
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

/** A field of a COPY text line: \N for null, backslash escapes for the separators. */
function field(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  const s = typeof value === 'string' ? value : String(value);
  return /[\\\t\n\r]/.test(s) ? s.replace(/[\\\t\n\r]/g, escapeChar) : s;
}
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const escapeChar = (c: string) => ESCAPES[c];
/** One line of COPY text. */
export const line = (values: (string | number | boolean | null | undefined)[]) => values.map(field).join('\t') + '\n';

export class CatalogueWriter {
  private batch: StagedBatch = emptyBatch();
  private seen = new Set<string>();
  private products = new Set<string>();
  private pending: string[] = [];
  private pendingSize = 0;
  private searchPending: string[] = [];
  private searchPendingSize = 0;
  /** The supplier had future price blocks when the import began (they must be replaced by the file's). */
  hasFuturePrices = true;
  /**
   * The supplier had no offers when the import began (its first catalogue): every staged offer is new, so offers are
   * inserted without the upsert's conflict check (the supplier's lock keeps other imports of it out meanwhile).
   */
  newOffersOnly = false;
  /** The supplier had no offers when the import began: undo withdraws all its offers, none is recorded one by one. */
  firstCatalogue = false;
  /** UN/ECE codes of the portal's units: an order unit outside them becomes piece (with a warning). */
  knownUnits: ReadonlySet<string> = new Set([DEFAULT_UNIT]);
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
    else {
      checkOptionalFields(a, this.knownUnits);
      this.push(await this.stageLine(a));
    }
    for (const reason of a.warnings) b.notes.push({ position: a.position, productId: a.supplierPid, reason });
  }

  private push(text: string) {
    this.pending.push(text);
    this.pendingSize += text.length;
    this.batch.lines++;
    if (this.pendingSize >= 262_144) this.seal();
  }

  private pushSearch(text: string) {
    this.searchPending.push(text);
    this.searchPendingSize += text.length;
    if (this.searchPendingSize >= 262_144) this.sealSearch();
  }

  private seal() {
    if (this.pending.length) this.batch.chunks.push(Buffer.from(this.pending.join(''), 'utf8'));
    this.pending = [];
    this.pendingSize = 0;
  }

  private sealSearch() {
    if (this.searchPending.length) this.batch.searchChunks.push(Buffer.from(this.searchPending.join(''), 'utf8'));
    this.searchPending = [];
    this.searchPendingSize = 0;
  }

  /** The staged batch, handed to write(); staging goes on into a fresh one. */
  take(): StagedBatch {
    this.seal();
    this.sealSearch();
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

  /**
   * Writes a staged batch; the caller wraps it in a transaction. A price batch may be written on another session of
   * the import (`session`, a second merge lane: its batches touch other offers); every other batch on the import's own.
   */
  async write(b: StagedBatch, session: pg.PoolClient = this.c): Promise<BatchResult> {
    const result: BatchResult = {
      created: 0,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      rejected: b.rejected,
      notes: b.notes,
      changedProducts: 0,
      searchPrices: null,
      searchVectors: null,
    };
    // Sorts and hashes of 50,000 staged rows stay in memory.
    await repo.setBatchWorkMem(session);
    if (this.transaction === 'T_UPDATE_PRICES') await this.updatePrices(b, result, session);
    else {
      if (session !== this.c) throw new Error('Nur Preisstapel werden auf einer zweiten Sitzung geschrieben.');
      // Rejected articles keep their current offer: they count as seen for the withdrawal at the end.
      if (this.recordSeen && b.pids.length)
        await this.timed('seen', () => repo.recordSeen(this.c, this.importId, b.pids));
      await this.upsert(b, result);
      if (b.deletes.length)
        result.deleted += await withdrawals.withdrawOffers(this.c, this.supplier, this.importId, b.deletes);
    }
    return result;
  }

  private async copy(
    into: (c: pg.PoolClient, chunks: Buffer[]) => Promise<void>,
    chunks: Buffer[],
    session: pg.PoolClient = this.c,
  ) {
    await this.timed('copy', () => into(session, chunks));
    // The COPY text is in Postgres now: its memory is free while the batch is merged.
    chunks.length = 0;
  }

  private async updatePrices(b: StagedBatch, result: BatchResult, s: pg.PoolClient) {
    if (!b.lines) return;
    await this.copy(repo.copyPriceStage, b.chunks, s);
    await prices.lookUpPricesByIndex(s);
    // Future blocks that differ from the stored ones (compared as JSON, ascending by start).
    const futures = b.futurePrices || this.hasFuturePrices;
    if (futures) await this.timed('future prices', () => prices.markChangedFuturePrices(s, this.supplier));
    // Today's price where the file has one (t.current); an article with only later blocks keeps it.
    const changed = await this.timed('offer prices', () => prices.updateOfferPrices(s, this.supplier));
    // Lines that changed no offer: unchanged, or an article the supplier's catalogue does not have.
    const unknown =
      changed < b.lines
        ? await this.timed('unknown articles', () => prices.unknownPriceArticles(s, this.supplier))
        : [];
    for (const r of unknown)
      result.rejected.push({
        position: r.pos,
        productId: r.pid,
        reason: `Der Artikel ${r.pid} ist im Katalog des Lieferanten nicht vorhanden.`,
      });
    if (futures)
      await this.timed('future prices', () => prices.replacePriceStageFuturePrices(s, this.supplier, b.futurePrices));
    const known = b.lines - unknown.length;
    result.updated += changed;
    result.unchanged += known - changed;
    result.changedProducts += changed;
    // A price update adds or removes no offer: of the search columns only the lowest price can change (no supplier
    // numbers aggregated), and only rows whose price moved are rewritten — by the import's second session once this
    // batch has committed (import-pipeline.ts), while this one merges the next batch. Until the import has written
    // them all, the supplier is marked (in this batch's transaction): an import that crashes meanwhile leaves the
    // mark, and the supplier's next import recomputes the lowest prices first.
    if (changed) {
      result.searchPrices = await prices.changedPriceProducts(s);
      await prices.markSearchPricesPending(s, this.supplier);
    }
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
        type: mediaType(m.type, m.purpose, m.source, m.description),
        file: m.source.split(/[\\/]/).pop() || m.source,
        description: m.description ?? '',
      };
      // A web address is fetched later (queued with the batch); another scheme (ftp, file …) never is.
      if (isUrl(m.source) && !/^https?:\/\//i.test(m.source))
        this.batch.notes.push({
          position: a.position,
          productId: a.supplierPid,
          reason: catalogueImportFailureTexts.mediaNotFetched(
            m.source,
            catalogueImportFailureTexts.mediaReasons.scheme,
          ),
        });
      if (/^https?:\/\//i.test(m.source)) this.batch.namesMediaUrls = true;
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
    // Positions differ between otherwise equal files, and warnings are no data: neither makes an article look changed.
    // (The hash of an article is the one stored before warnings existed.)
    const position = a.position;
    const { warnings: _warnings, ...hashed } = a;
    hashed.position = 0;
    // One-shot digest (no Hash object per article): the same SHA-1 as before, about 2 µs less per article.
    const hash = digest(
      'sha1',
      JSON.stringify([hashed, productId, brand.brandNo, classNo, featureValues, leafNo]),
      'base64',
    );
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
    this.pushSearch(line([position, productId, doc.a, doc.b, doc.c, doc.d]));
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
      a.orderUnit ?? DEFAULT_UNIT,
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
      this.references(a, 'successors'),
      futureJson(a.futurePrices),
      keepPrice,
    ]);
  }

  private async upsert(b: StagedBatch, result: BatchResult) {
    if (!b.lines) return;
    await this.copy(repo.copyArticleStage, b.chunks);
    const c = this.c;
    const isUpdate = this.transaction === 'T_UPDATE_PRODUCTS';
    let dropped: number[] = [];
    // A supplier without offers when the import began: every staged article is new as long as no article number of
    // the file comes back in a later batch, so there is nothing unchanged to drop and no offer to count — the batch
    // is written at once (those two lookups per article cost about a tenth of the merge). An article number met again
    // makes the offers' insert fail: the batch is rolled back and written as any other, upserting from then on.
    if (this.newOffersOnly && (await repo.inSavepoint(c, () => this.writeArticles(b, isUpdate, true)))) {
      result.created += b.lines;
      result.changedProducts += b.lines;
    } else {
      this.newOffersOnly = false;
      // Same hash, and the product has its search row (published or staged by this import): nothing to
      // write, so re-importing a file changes nothing. After a crash the staged search rows are gone;
      // such products are written again rather than left unsearchable.
      dropped = await this.timed('unchanged', () => repo.dropUnchangedStaged(c, this.importId));
      const counts = await repo.countStaged(c);
      result.unchanged += dropped.length;
      result.updated += counts.existing;
      result.created += counts.total - counts.existing;
      result.changedProducts += counts.total;
      if (!counts.total) {
        b.searchChunks.length = 0;
        return;
      }
      await this.writeArticles(b, isUpdate, false);
    }
    // A supplier's first catalogue has no future prices stored yet: nothing to replace then.
    if (b.futurePrices || this.hasFuturePrices)
      await this.timed('future prices', () => repo.replaceStagedFuturePrices(c, this.supplier, b.futurePrices));

    // Search vectors: computed by the second session once this batch has committed (writeSearch).
    result.searchVectors = {
      chunks: b.searchChunks,
      dropped,
      sharedProducts: b.sharedProducts,
      namesMediaUrls: b.namesMediaUrls,
    };
  }

  /** Writes the staged articles' products and offers (`newOnly`: offers inserted without the upsert's conflict check). */
  private async writeArticles(b: StagedBatch, isUpdate: boolean, newOnly: boolean) {
    const c = this.c;
    // Undo: what the batch is about to change, as it is. A supplier's first catalogue records nothing: it changes no
    // offer of its own (undo withdraws them all), and a lookup of every staged product would cost the bulk load.
    if (!this.firstCatalogue) await this.timed('undo record', () => withdrawals.snapshotStaged(c, this.importId));
    // Articles with only future price blocks keep the offer's price of today.
    if (b.keepsPrice) await repo.keepTodaysPrices(c);
    await this.timed('products', () => repo.upsertProducts(c, b.sharedProducts, isUpdate));
    await this.timed('offers', async () => {
      await repo.upsertOffers(c, this.supplier, this.ref.productDataSource, newOnly);
      // An offer that comes back after a withdrawal is live again.
      await repo.reviveWithdrawnOffers(c, this.supplier);
    });
  }

  /**
   * Computes a committed batch's search vectors in the second session `s` (one transaction; the caller runs the
   * batches in order): its search texts are COPYed into that session's stage, the vectors staged for publishSearch.
   * Until they are, the batch's products have no search row of this import: a crash meanwhile makes the next run
   * write them again (dropUnchangedStaged asks for one) instead of taking them as unchanged.
   */
  async writeSearch(s: pg.PoolClient, work: SearchWork) {
    await this.timed('search vectors (second session)', () =>
      inClientTransaction(s, async () => {
        await repo.setBatchWorkMem(s);
        await repo.copySearchStage(s, work.chunks);
        // The text is in Postgres now: its memory is free while the vectors are computed.
        work.chunks.length = 0;
        await repo.stageSearchVectors(s, work.sharedProducts, this.importId, work.dropped);
        // Media named by URL: fetched and stored by the media fetcher once the import has ended (noted here, durably,
        // before the batch counts as committed completely), never redirected to.
        if (work.namesMediaUrls) await repo.noteStagedMedia(s, this.importId);
      }),
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
  searchChunks: [],
  lines: 0,
  sharedProducts: false,
  read: 0,
  pids: [],
  rejected: [],
  notes: [],
  deletes: [],
  keepsPrice: false,
  futurePrices: false,
  namesMediaUrls: false,
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
 * The kind of a catalogue medium. Only pictures and the manufacturer's technical documents are public
 * (PUBLIC_MEDIA_KINDS); a price list (named so) and a document whose purpose is not stated stay behind sign-in.
 */
function mediaType(mime: string, purpose: string | null, source: string, description: string | null): string {
  const p = (purpose ?? '').toLowerCase();
  const image = mime.startsWith('image/') || /\.(jpe?g|png|gif|webp)$/i.test(source);
  if (!image && PRICE_LIST.test(`${source} ${description ?? ''}`)) return 'Preisliste';
  if (p === 'data_sheet') return 'Datenblatt';
  if (p === 'instructions' || p === 'safety_data_sheet') return 'Montageanleitung';
  if (p === 'drawing' || p === 'dimensioned_drawing') return '2D';
  if (/\.(stp|step|igs|iges)$/i.test(source) || p === '3d') return '3C';
  if (image) return 'picture';
  return 'Dokument';
}

/** A document that names itself a price list or conditions. */
const PRICE_LIST = /preis\s*-?\s*liste|price\s*-?\s*list|pricelist|konditionen|rabatt/i;
