/**
 * Owns the process's search index: builds it from Postgres on first use, then follows the change
 * feed (migration 0150: search_changes, filled by triggers on product_search): woken by NOTIFY
 * search_changes, polling every second as a fallback, it re-reads the changed products' rows and
 * replaces them in the bitmaps. Every API process follows the feed on its own.
 *
 * Snapshot: with a directory (DATA_DIR/search-index) the index is saved after a build, every
 * 10 minutes when products changed (else only before it gets too old to load), and on close; a start loads it (when it is younger than the feed's
 * retention and belongs to this database's feed) and catches up with the feed instead of rebuilding.
 */
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { listenChannel } from '../../../../db/listen.ts';
import { SearchIndex } from './search-index.ts';
import { FEED_REBUILD } from './feed.ts';
import {
  changedProducts,
  feedHorizon,
  feedNext,
  feedRowExists,
  latestFeedRow,
  pruneSearchChanges,
  searchRowCount,
  searchRowsOf,
} from './search-index.repo.ts';

/** Poll interval of the feed when no notification arrives. */
const POLL_MS = 1_000;
/** Products re-read per statement while applying changes. */
const CHUNK = 20_000;
/** A change of more than this share of the catalogue (a catalogue load) builds the index anew. */
const REBUILD_SHARE = 0.3;
const PRUNE_EVERY_MS = 10 * 60_000;
const SAVE_EVERY_MS = 10 * 60_000;
/** Feed rows are pruned after a day: an older snapshot could miss changes. */
const SNAPSHOT_MAX_AGE_MS = 20 * 3600_000;

interface SnapshotMeta {
  savedAt: number;
  feedRow: { seq: string; xid: string } | null;
  count: number;
}

export class SearchIndexHolder {
  private index: Promise<SearchIndex> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopListening: (() => Promise<void>) | null = null;
  private running: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;
  private closed = false;
  private lastPrune = Date.now();
  private lastSave = 0;
  /** Products changed since the last save (the feed position alone moves with every transaction of the database). */
  private changedSinceSave = false;
  private savedPosition: string | null = null;
  /** LISTEN search_changes is connected: without a notification since the last round, nothing changed. */
  private listening = false;
  /** A notification arrived after the last round started (its changes may not be applied yet). */
  private notified = true;
  /** An index was built or loaded: searches can be answered from it (false while the first build or load runs). */
  ready = false;
  /** A snapshot is being loaded (a few seconds at 1M products; a build takes far longer). */
  private loadingSnapshot = false;
  /** The current snapshot load: whether it gave an index (false: a build follows). */
  private snapshotLoad: Promise<boolean> | null = null;
  /** How the index came to be: built from Postgres or loaded from the snapshot, and the time it took. */
  origin: { kind: 'build' | 'snapshot'; ms: number } | null = null;

  constructor(
    private readonly pool: () => pg.Pool,
    private readonly options: {
      snapshotDir?: string;
      log?: { warn: (o: object, m: string) => void; info?: (o: object, m: string) => void };
      /**
       * Run on the process's first index after it was built or loaded and before it answers (warm-up.ts): a request
       * arriving meanwhile waits for it as for the snapshot load. Later rebuilds are not warmed up again.
       */
      warmUp?: (index: SearchIndex) => Promise<unknown>;
    } = {},
  ) {}

  private get log() {
    return this.options.log ?? { warn: () => {} };
  }

  private get snapshotFile() {
    return this.options.snapshotDir ? path.join(this.options.snapshotDir, 'snapshot.bin') : null;
  }

  /**
   * Whether the index is there within `maxMs`: at once when it is, else only while its snapshot is being loaded
   * (waiting the few seconds costs less than answering through SQL, whose facet counts read every match) – not while
   * it is built, nor longer than `maxMs` (a load that fails turns into a build).
   */
  async whenLoaded(maxMs: number): Promise<boolean> {
    if (this.ready) return true;
    const index = this.index;
    if (!index) return false;
    const answering = () =>
      index.then(
        () => this.ready,
        () => false,
      );
    let loaded: Promise<boolean>;
    // The warm-up after a build or load takes a few seconds: waited for like a snapshot load.
    if (this.warmingUp) loaded = answering();
    // A snapshot that is not loaded (too old, another database) ends the wait at once: the build is not waited for.
    else if (this.loadingSnapshot && this.snapshotLoad)
      loaded = this.snapshotLoad.then((ok) => (ok ? answering() : false));
    else return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), maxMs);
    });
    try {
      return await Promise.race([loaded, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  get(): Promise<SearchIndex> {
    if (!this.index) {
      const index = this.build();
      index.catch(() => {
        if (this.index === index) this.index = null; // a failed build is tried again by the next request
      });
      this.index = index;
      void index
        .then(() => {
          this.ready = true;
          return this.follow();
        })
        .catch(() => {});
    }
    return this.index;
  }

  /** The index built or loaded, warmed up when it is the process's first (see options.warmUp). */
  private async build(): Promise<SearchIndex> {
    const index = await this.buildOrLoad();
    if (this.options.warmUp && !this.warmedUp) {
      this.warmedUp = true;
      this.warmingUp = true;
      const started = performance.now();
      try {
        const searches = await this.options.warmUp(index);
        this.warmUp = { searches: Number(searches) || 0, ms: performance.now() - started };
        this.log.info?.({ ...this.warmUp, ms: Math.round(this.warmUp.ms) }, 'search index warmed up');
      } catch (e) {
        this.log.warn({ err: e }, 'search index: warm-up failed');
      } finally {
        this.warmingUp = false;
      }
    }
    return index;
  }

  private warmedUp = false;
  /** The first index's warm-up runs (requests wait for it, whenLoaded). */
  private warmingUp = false;
  /** The first index's warm-up: synthetic searches run and the time it took (tests, logs). */
  warmUp: { searches: number; ms: number } | null = null;

  private async buildOrLoad(): Promise<SearchIndex> {
    const started = performance.now();
    this.loadingSnapshot = !!this.snapshotFile && fs.existsSync(this.snapshotFile);
    const attempt = this.load()
      .catch((e) => {
        this.log.warn({ err: e }, 'search index: snapshot not loaded, building');
        return null;
      })
      .finally(() => (this.loadingSnapshot = false));
    this.snapshotLoad = attempt.then((index) => index !== null);
    const loaded = await attempt;
    if (loaded) {
      this.origin = { kind: 'snapshot', ms: performance.now() - started };
      return loaded;
    }
    const index = await SearchIndex.build(this.pool());
    this.origin = { kind: 'build', ms: performance.now() - started };
    this.log.info?.({ products: index.size, ms: Math.round(this.origin.ms) }, 'search index built');
    void this.save(index);
    return index;
  }

  private async load(): Promise<SearchIndex | null> {
    const file = this.snapshotFile;
    if (!file || !fs.existsSync(file)) return null;
    const snapshot = SearchIndex.readSnapshot(file);
    if (!snapshot) return null;
    const meta = snapshot.meta as unknown as SnapshotMeta;
    const pool = this.pool();
    if (Date.now() - meta.savedAt > SNAPSHOT_MAX_AGE_MS) return null;
    // The snapshot's newest feed row must still be there (same database, nothing pruned after it);
    // without feed rows, the feed must still be empty and the row count equal.
    if (meta.feedRow ? !(await feedRowExists(pool, meta.feedRow)) : (await latestFeedRow(pool)) !== null) return null;
    if (!meta.feedRow && (await searchRowCount(pool)) !== meta.count) return null;
    this.savedPosition = snapshot.index.feedPosition;
    this.lastSave = meta.savedAt;
    return snapshot.index;
  }

  /** Writes the snapshot (temporary file, then rename: a crash never leaves half a snapshot). */
  private async save(index: SearchIndex): Promise<void> {
    const file = this.snapshotFile;
    if (!file || this.savedPosition === index.feedPosition) return;
    try {
      const pool = this.pool();
      const position = index.feedPosition;
      const meta: SnapshotMeta = {
        savedAt: Date.now(),
        feedRow: await latestFeedRow(pool),
        count: index.size,
      };
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      // Synchronous (snapshot.ts): consistent with the feed position without copying the columns.
      index.writeSnapshot(tmp, meta as unknown as Record<string, unknown>);
      await fs.promises.rename(tmp, file);
      this.savedPosition = position;
      this.lastSave = Date.now();
      this.changedSinceSave = false;
    } catch (e) {
      this.log.warn({ err: e }, 'search index: snapshot not saved');
    }
  }

  private async follow() {
    if (this.closed || this.timer) return;
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.timer.unref();
    try {
      this.stopListening = await listenChannel(
        this.pool(),
        'search_changes',
        () => {
          this.notified = true;
          this.wake();
        },
        (e) => {
          this.listening = false;
          this.log.warn({ err: e }, 'search index: change notifications lost, polling continues');
        },
      );
      this.listening = true;
    } catch (e) {
      this.log.warn({ err: e }, 'search index: LISTEN failed, polling the change feed');
    }
    this.wake();
  }

  /** Applies the feed (woken by a notification or the poll). */
  wake() {
    if (this.closed) return;
    this.sync().catch((e) =>
      this.log.warn({ err: e }, 'search index: applying changes failed, retried on the next poll'),
    );
  }

  /**
   * Applies every change committed before the call. Rounds run one after another (an older read
   * never overwrites a newer one); callers arriving while a round waits to start share it.
   */
  sync(): Promise<void> {
    if (this.queued) return this.queued;
    const round = this.running.then(() => {
      this.queued = null;
      return this.apply();
    });
    this.queued = round;
    this.running = round.catch(() => {});
    return round;
  }

  /** The index with every change committed before the call applied (read your writes). */
  async current(): Promise<SearchIndex> {
    await this.get();
    await this.sync();
    return this.get();
  }

  /**
   * The index for a search: without a round trip when LISTEN is connected and no notification
   * arrived since the last round started (nothing changed); else like current(). A change is
   * visible once its notification arrived (milliseconds after the commit), the poll covers the rest.
   */
  latest(): Promise<SearchIndex> {
    if (!this.listening || this.notified || !this.index) return this.current();
    return this.index;
  }

  /**
   * Resolves once every change committed before the call is applied (tests, benchmarks). A round applies the feed up
   * to the oldest transaction still running anywhere in the cluster (feedHorizon); one that started before the call
   * and runs on (another database's, another import's) holds that back, so rounds repeat until the horizon has passed
   * every transaction begun before the call, for at most `timeoutMs`.
   */
  async catchUp(timeoutMs = 30_000): Promise<void> {
    await this.get();
    const target = BigInt(await feedNext(this.pool()));
    const until = Date.now() + timeoutMs;
    for (;;) {
      await this.sync();
      const index = await this.index;
      if (!index || BigInt(index.feedPosition) >= target || Date.now() > until) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private async apply() {
    const index = await this.index;
    if (!index) return;
    const pool = this.pool();
    // Notifications from here on belong to the next round.
    this.notified = false;
    const horizon = await feedHorizon(pool);
    if (horizon === index.feedPosition) return;
    const ids = await changedProducts(pool, index.feedPosition, horizon);
    if (ids.includes(FEED_REBUILD) || ids.length > Math.max(CHUNK, index.size * REBUILD_SHARE)) {
      const fresh = await this.build();
      if (!this.closed) this.index = Promise.resolve(fresh);
      return;
    }
    for (let k = 0; k < ids.length; k += CHUNK) {
      const chunk = ids.slice(k, k + CHUNK);
      index.applyChanges(chunk, await searchRowsOf(pool, chunk));
    }
    index.feedPosition = horizon;
    if (ids.length) this.changedSinceSave = true;
    // Writing the snapshot serialises the whole index on the event loop (about a second at 1M products):
    // only when products changed, or before the snapshot gets too old to be loaded.
    const saveAfter = this.changedSinceSave ? SAVE_EVERY_MS : SNAPSHOT_MAX_AGE_MS / 2;
    if (Date.now() - this.lastSave > saveAfter) await this.save(index);
    if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = Date.now();
      await pruneSearchChanges(pool);
    }
  }

  async close() {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    await this.stopListening?.();
    const index = await this.index?.catch(() => null);
    if (index) await this.save(index);
  }
}
