import { PassThrough, type Readable } from 'node:stream';
import type pg from 'pg';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { LRUCache } from 'lru-cache';
import { businessToday } from '@shk/contracts';
import { ChannelFollowingCache } from '../db/listen.ts';
import type { Caller } from './auth.ts';

/**
 * Tables whose changes the read-model cache follows (migration 0215: a statement trigger on each sends NOTIFY
 * read_model_changes with the table's name at commit). A route or value names the ones its answer reads.
 */
export type ReadModelTable =
  | 'business_partners'
  | 'suppliers'
  | 'supplier_customers'
  | 'custom_parameters'
  | 'custom_parameter_values'
  | 'favorite_products'
  | 'units'
  | 'products'
  | 'product_offers'
  | 'catalogue_offer_prices'
  | 'carts'
  | 'cart_items'
  | 'cart_totals'
  | 'catalogue_state';

/** `config.readModel` of a GET route whose JSON answer is kept (see registerReadModelCache). */
export interface ReadModelRoute {
  /** The tables the answer reads (besides the caller, which is part of the key). */
  tables: readonly ReadModelTable[];
  /**
   * What else the answer depends on, as a string in the key: a version of an in-process snapshot (the catalogue
   * meta's version, snapshotId of a cached object). null: this answer is not kept (e.g. a live price strategy).
   */
  vary?: (request: FastifyRequest) => string | null | Promise<string | null>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's JSON answer is kept by the read-model cache (http/read-model-cache.ts). */
    readModel?: ReadModelRoute;
    /**
     * true: a GET route that writes a followed table (the default cart created on first use): counted as a write, so
     * this process's next cached read waits for its notification. false: a POST route that only reads (the search,
     * whose body is too large for a query string; it writes no followed table): not counted. Missing: non-GET routes
     * count as writes.
     */
    changesReadModels?: boolean;
  }
  interface FastifyInstance {
    /** Answers and values read from the database, kept until a table they read changes (read-model-cache.ts). */
    readModels: ReadModelCache;
  }
}

interface Entry {
  tables: readonly ReadModelTable[];
  /** A kept JSON answer: its text, its content type and compressed copies by the request's Accept-Encoding. */
  body?: string;
  contentType?: string;
  encoded?: Map<string, { encoding: string; payload: Buffer }>;
  /** A kept value (read()). */
  value?: unknown;
  size: number;
}

/** How long a round trip on the listening connection may take before the connection counts as lost. */
const SYNC_TIMEOUT_MS = 2_000;

/**
 * Tables whose changes are counted in read_model_versions (migration 0631) instead of notified at commit: the cart
 * tables, written by every checkout and every added line (a notifying commit queues behind all others).
 */
const VERSIONED_TABLES: readonly ReadModelTable[] = ['carts', 'cart_items', 'cart_totals'];
/** The notification a process sends after it saw the versions change: the others read them at once. */
const VERSIONS_CHANGED = 'versions';
/** The versions are also read this often: a writer that ended before it told the others (killed) is seen then. */
const VERSION_POLL_MS = 1_000;
const READ_VERSIONS = `SELECT table_name, sum(version)::text AS version FROM read_model_versions GROUP BY table_name`;

/**
 * A process-local cache of read models: JSON answers of GET routes (`config.readModel`) and values (read()), each
 * keyed by what it depends on — the URL with its query, the whole caller (user, role, current partner, partners,
 * names, IDS context: one user never gets another's answer, and a changed caller is a new key), the business day in
 * Europe/Berlin (settings and prices valid today) and the route's `vary` — and dropped when a table it read changes.
 *
 * Freshness across processes: every write to a followed table notifies at its commit (migration 0215); each process
 * LISTENs and drops the entries that read that table. The cart tables count their changes in read_model_versions
 * instead (migration 0631: a notifying commit waits for all others); a process reads the sums on its listening
 * connection after each write it answered and, when they moved, tells the others with NOTIFY 'versions' (they read
 * them at once, and nothing kept is used meanwhile); every process also reads them every second. An entry is only kept when no notification arrived while it
 * was computed, and entries are only used while the listener is connected: before it connects and after it is lost
 * every request reads the database as before (no caching) and the entries are dropped. What remains is the
 * notification's delivery time to another process (about 0.1 ms after the commit here). A process's own writes: after
 * any non-GET request answered here, the next cached read first waits for a round trip on the listening connection
 * (sync(): every notification committed before it has then arrived), so a caller never reads past its own change.
 *
 * Bounded: at most 20,000 entries and 64 MB of answers with their compressed copies (least recently used dropped first).
 */
export class ReadModelCache extends ChannelFollowingCache {
  /** The keys of the entries that read each table (kept by the cache's dispose). */
  private readonly keysOfTable = new Map<ReadModelTable, Set<string>>();
  protected readonly entries = new LRUCache<string, Entry>({
    max: 20_000,
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (entry) => Math.max(1, entry.size),
    dispose: (entry, key, reason) => {
      // A set() of the same entry again (a compressed copy added) keeps its keys.
      if (reason === 'set' && this.entries.peek(key) === entry) return;
      for (const table of entry.tables) {
        const keys = this.keysOfTable.get(table);
        keys?.delete(key);
        if (keys?.size === 0) this.keysOfTable.delete(table);
      }
    },
  });
  /** Round trips on the listening connection started and completed (numbered from 1). */
  private syncsStarted = 0;
  private syncsCompleted = 0;
  private syncing: Promise<void> | null = null;
  /** The number of the first round trip that started after the last write this process answered. */
  private writeMark = 0;
  /** In-process stores that follow the same notifications (the search hits' store): called with the table, null: all. */
  private readonly followers: ((table: ReadModelTable | null) => void)[] = [];
  /** Answers served from the cache (tests and the bench's view of it), and of them sent as a kept compressed copy. */
  hits = 0;
  compressedHits = 0;
  /** The sums of read_model_versions last read, and on which connection of the listener (see readVersions). */
  private versions = new Map<string, string>();
  private versionsConnection = 0;
  /**
   * A write was answered here since the others were last told; and whether the versions moved since then (a change
   * seen by a read that began before the write's answer, perhaps the write's own, is told with the next write's read).
   */
  private unannouncedWrite = false;
  private changedSinceWrite = false;
  private pollTimer: NodeJS.Timeout | null = null;

  /** LISTEN read_model_changes: its generation tells whether anything changed while an answer was read. */
  constructor(pool: pg.Pool, log?: { warn: (o: object, m: string) => void }) {
    super(pool, 'read_model_changes', log);
  }

  override async start(): Promise<void> {
    await super.start();
    this.pollTimer ??= setInterval(() => {
      if (this.channel.connected && !this.syncing) void this.syncUntil(this.syncsStarted + 1);
    }, VERSION_POLL_MS);
    this.pollTimer.unref();
  }

  override async close(): Promise<void> {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
    await super.close();
  }

  /**
   * Lets another in-process store follow this cache's notifications (one LISTEN connection per process): `onChange`
   * gets the table a commit wrote, or null when anything may have changed (an unknown payload, the listener lost).
   * Such a store uses what it keeps only while settled() is true and keeps a read only when no change of its tables
   * arrived while it read (its own generation, see hit-store.ts).
   */
  follow(onChange: (table: ReadModelTable | null) => void): void {
    this.followers.push(onChange);
  }

  /** The Berlin day the store's values belong to; null in the first seconds of a day (nothing is kept then). */
  keepingDay(): string | null {
    return dayStarting() ? null : businessDay();
  }

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Resolves when every change committed before the call has been applied (one round trip on the listening
   * connection): for a writer that must see its change in this process's next answer without having gone through it
   * (tests that write with SQL). Without the listener nothing is kept, so nothing is to wait for.
   */
  async synced(): Promise<void> {
    await this.syncUntil(this.syncsStarted + 1);
  }

  /**
   * A write was answered by this process: the next cached read first waits until its notifications arrived and the
   * versions were read; they are read now, and the other processes are told when they moved. The answer waits for
   * it (about two round trips on the listening connection, shared by the writes answered meanwhile), so a client that
   * reads on another process next finds the change told there as it was with the notification at commit.
   */
  async wrote(): Promise<void> {
    this.unannouncedWrite = true;
    await this.syncSoon();
  }

  /** The next cached read waits for a round trip that starts now or after the one in flight (resolves with it). */
  private syncSoon(): Promise<void> {
    this.writeMark = this.syncsStarted + 1;
    return this.channel.connected ? this.syncUntil(this.writeMark) : Promise.resolve();
  }

  /**
   * A value read through the cache: `load` runs when no entry is kept under `key` (and the business day), its result
   * is kept until one of `tables` changes. The value is shared between requests: never change it.
   */
  async read<T>(key: string, tables: readonly ReadModelTable[], load: () => Promise<T>): Promise<T> {
    if (!(await this.settled())) return load();
    const fullKey = `value\u0000${key}\u0000${businessDay()}`;
    const ticket = this.ticket();
    const found = this.get(fullKey);
    if (found && 'value' in found) return found.value as T;
    const value = await load();
    this.keep(fullKey, ticket, { tables, value, size: 256 });
    return value;
  }

  /**
   * Whether entries may be used now: the listener is connected, and when this process answered a write since the
   * last sync, every notification committed before this call has arrived (one round trip shared by all waiting).
   */
  async settled(): Promise<boolean> {
    if (!this.channel.connected) return false;
    // Connected again: the versions of this connection are read before anything is used.
    if (this.versionsConnection !== this.channel.connections) this.writeMark = this.syncsStarted + 1;
    if (this.syncsCompleted < this.writeMark) await this.syncUntil(this.writeMark);
    return this.channel.connected;
  }

  /** The entry under a key, only while the listener is connected. */
  get(key: string): Entry | undefined {
    return this.channel.connected ? this.entries.get(key) : undefined;
  }

  /** Taken before the reads; keep() stores their outcome only if nothing changed meanwhile. */
  ticket(): number | null {
    return this.channel.ticket();
  }

  keep(key: string, ticket: number | null, entry: Entry): Entry | undefined {
    if (!this.channel.unchangedSince(ticket) || dayStarting()) return undefined;
    this.entries.set(key, entry);
    if (this.entries.peek(key) !== entry) return undefined; // larger than the cache allows
    for (const table of entry.tables) {
      const keys = this.keysOfTable.get(table);
      if (keys) keys.add(key);
      else this.keysOfTable.set(table, new Set([key]));
    }
    return entry;
  }

  /** Records a compressed copy of a kept answer (its size counts from now on). */
  addEncoded(key: string, entry: Entry, acceptEncoding: string, encoding: string, payload: Buffer): void {
    if (this.entries.peek(key) !== entry) return;
    entry.encoded ??= new Map();
    if (entry.encoded.size >= 4) return;
    entry.encoded.set(acceptEncoding, { encoding, payload });
    entry.size += payload.length;
    this.entries.set(key, entry);
  }

  /** Drops the entries that read a table (a notification's payload; anything unknown drops all). */
  protected changed(payload: string): void {
    if (payload === VERSIONS_CHANGED) {
      // Another process saw the versions move: read them before anything kept is used again.
      void this.syncSoon();
      return;
    }
    this.dropTable(payload);
  }

  private dropTable(payload: string): void {
    const known = KNOWN_TABLES.has(payload);
    for (const follower of this.followers) follower(known ? (payload as ReadModelTable) : null);
    if (!known) {
      this.entries.clear();
      return;
    }
    for (const key of [...(this.keysOfTable.get(payload as ReadModelTable) ?? [])]) this.entries.delete(key);
  }

  /**
   * A round trip on the listening connection that reads the versions of the cart tables (every notification
   * committed before it has arrived when it answers): drops the entries of each table whose sum moved. The first read
   * on a connection drops all of them (a change may have come before it). When they moved and this process answered a
   * write since it last told the others, it tells them (NOTIFY outside any transaction: no commit waits for it).
   */
  private async readVersions(): Promise<void> {
    const connection = this.channel.connections;
    const announce = this.unannouncedWrite;
    this.unannouncedWrite = false;
    const rows = await this.channel.query<{ table_name: string; version: string }>(READ_VERSIONS);
    const first = connection !== this.versionsConnection;
    let moved = false;
    for (const { table_name: table, version } of rows) {
      if (!VERSIONED.has(table)) continue;
      if (!first && this.versions.get(table) === version) continue;
      this.versions.set(table, version);
      this.dropTable(table);
      if (!first) moved = true;
    }
    this.versionsConnection = connection;
    // Reads begun before this one are not kept (their tables may have changed meanwhile).
    if (moved || first) this.channel.bump();
    if (moved) {
      this.notifications++;
      this.changedSinceWrite = true;
    }
    if (announce && this.changedSinceWrite) {
      this.changedSinceWrite = false;
      // Its own transaction on the listening connection, whose commits do not wait for the WAL flush (listen.ts).
      await this.channel.query(`SELECT pg_notify('read_model_changes', $1)`, [VERSIONS_CHANGED]);
    }
  }

  protected override lostAll(): void {
    for (const follower of this.followers) follower(null);
  }

  /** Waits for round trip number `n` (one in flight is shared by all waiting; a later one starts after it). */
  private async syncUntil(n: number): Promise<void> {
    while (this.syncsCompleted < n && this.channel.connected) await (this.syncing ?? this.startSync());
  }

  private startSync(): Promise<void> {
    const number = ++this.syncsStarted;
    let timer: NodeJS.Timeout | undefined;
    // A listening connection that stops answering counts as lost (reads go to the database) rather than stalling them.
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('read-model cache: sync timed out')), SYNC_TIMEOUT_MS);
    });
    const done = Promise.race([this.readVersions(), stalled]).then(
      () => {
        this.syncsCompleted = Math.max(this.syncsCompleted, number);
      },
      (e: unknown) => this.channel.lost(e as Error),
    );
    this.syncing = done.finally(() => {
      clearTimeout(timer);
      this.syncing = null;
    });
    return this.syncing;
  }
}

/** Tables of read_model_versions as the cache names them. */
const VERSIONED = new Set<string>(VERSIONED_TABLES);

const KNOWN_TABLES = new Set<string>([
  'business_partners',
  'suppliers',
  'supplier_customers',
  'custom_parameters',
  'custom_parameter_values',
  'favorite_products',
  'units',
  'products',
  'product_offers',
  'catalogue_offer_prices',
  'carts',
  'cart_items',
  'cart_totals',
  'catalogue_state',
]);

/**
 * How long after a Berlin midnight nothing is kept. The key's day is this process's clock, the prices and settings
 * valid today are the database's (now()): a database host whose clock is behind still answers with the day before
 * for that long, and such an answer would be kept under the new day's key for the whole day.
 */
export const DAY_START_MARGIN_MS = 10_000;

let today = { day: '', until: 0, starting: false };
/** Today in Europe/Berlin, recomputed at most once a second (and when the clock was set back). */
function businessDay(): string {
  const now = Date.now();
  if (now >= today.until || now < today.until - 1_000) {
    const day = businessToday(new Date(now));
    today = { day, until: now + 1_000, starting: businessToday(new Date(now - DAY_START_MARGIN_MS)) !== day };
  }
  return today.day;
}

/** The Berlin day began less than DAY_START_MARGIN_MS ago (a second more at most). */
function dayStarting(): boolean {
  businessDay();
  return today.starting;
}

const callerKeys = new WeakMap<Caller, string>();
/** Everything of the caller an answer may depend on (cached per caller object: the caller cache keeps them). */
function callerKey(caller: Caller): string {
  let key = callerKeys.get(caller);
  if (key === undefined) {
    key = JSON.stringify([
      caller.userId,
      caller.role,
      caller.bpNumber,
      caller.partners,
      caller.idsContextId,
      caller.email,
      caller.firstName,
      caller.lastName,
    ]);
    callerKeys.set(caller, key);
  }
  return key;
}

const snapshotIds = new WeakMap<object, number>();
let nextSnapshotId = 0;
/** A number per in-process object (a `vary` for answers computed from an immutable snapshot such as a facet set). */
export function snapshotId(snapshot: object): number {
  let id = snapshotIds.get(snapshot);
  if (id === undefined) {
    id = ++nextSnapshotId;
    snapshotIds.set(snapshot, id);
  }
  return id;
}

function isStream(payload: unknown): payload is Readable {
  return (
    typeof payload === 'object' &&
    payload !== null &&
    typeof (payload as Readable).pipe === 'function' &&
    typeof (payload as Readable).on === 'function'
  );
}

interface Pending {
  key: string;
  ticket: number | null;
  tables: readonly ReadModelTable[];
  entry?: Entry;
}
const pendingOf = new WeakMap<FastifyRequest, Pending>();

/**
 * Wires the cache into the app: a GET route with `config.readModel` answers from the cache when it holds the
 * answer for this key (before its handler: no statement, no serialisation; the kept compressed copy when the
 * request's Accept-Encoding matches one), else its handler runs and a 200 answer's JSON text is kept. Must be
 * registered after @fastify/compress (its per-route onSend runs first, so the compressed copy can be kept) and before
 * the routes. Hooks that run on every answer (request id, security headers) still run on a cached one.
 */
export function registerReadModelCache(app: FastifyInstance, pool: pg.Pool): ReadModelCache {
  const cache = new ReadModelCache(pool, app.log);
  app.decorate('readModels', cache);
  app.addHook('onReady', () => cache.start());
  app.addHook('onClose', () => cache.close());

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const spec = request.routeOptions.config?.readModel;
    if (!spec || request.method !== 'GET' || !request.caller || !(await cache.settled())) return;
    const ticket = cache.ticket();
    const vary = spec.vary ? await spec.vary(request) : '';
    if (vary === null) return;
    const key = `${request.url}\u0000${callerKey(request.caller)}\u0000${businessDay()}\u0000${vary}`;
    const entry = cache.get(key);
    if (entry?.body !== undefined) {
      cache.hits++;
      reply.header('content-type', entry.contentType);
      const acceptEncoding = request.headers['accept-encoding'];
      const encoded =
        typeof acceptEncoding === 'string' && request.headers['x-no-compression'] === undefined
          ? entry.encoded?.get(acceptEncoding)
          : undefined;
      if (encoded) {
        cache.compressedHits++;
        reply.header('content-encoding', encoded.encoding).header('vary', 'accept-encoding');
        return reply.send(encoded.payload);
      }
      pendingOf.set(request, { key, ticket: null, tables: spec.tables, entry });
      return reply.send(entry.body);
    }
    pendingOf.set(request, { key, ticket, tables: spec.tables });
  });

  // Before @fastify/compress (route-level onSend hooks run after the app's): the answer's JSON text.
  app.addHook('onSend', async (request, reply, payload) => {
    const declared = request.routeOptions.config?.changesReadModels;
    const writing = declared ?? (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS');
    if (writing) {
      if (reply.statusCode < 400) await cache.wrote();
      return;
    }
    const pending = pendingOf.get(request);
    if (!pending || pending.entry || reply.statusCode !== 200 || typeof payload !== 'string') return;
    const contentType = reply.getHeader('content-type');
    if (typeof contentType !== 'string' || !contentType.includes('json')) return;
    pending.entry = cache.keep(pending.key, pending.ticket, {
      tables: pending.tables,
      body: payload,
      contentType,
      // A string may hold two bytes per character (umlauts): counted as two.
      size: payload.length * 2,
    });
  });

  // After @fastify/compress: its compressed copy of a kept answer, for the next request with this Accept-Encoding
  // (compressed at once below its sync threshold, else as a stream, which is copied while it is sent).
  const keepEncoded: onSendHookHandler = (request, reply, payload, done) => {
    const pending = pendingOf.get(request);
    const encoding = reply.getHeader('content-encoding');
    const acceptEncoding = request.headers['accept-encoding'];
    const entry = pending?.entry;
    if (!entry || reply.statusCode !== 200 || typeof encoding !== 'string' || typeof acceptEncoding !== 'string')
      return done(null, payload);
    if (Buffer.isBuffer(payload)) {
      cache.addEncoded(pending.key, entry, acceptEncoding, encoding, payload);
      return done(null, payload);
    }
    // A stream (@fastify/compress's own transform, not necessarily node's Readable class).
    if (!isStream(payload)) return done(null, payload);
    const chunks: Buffer[] = [];
    const copy = new PassThrough();
    // Both listeners are attached in this tick: the copy and the answer get every chunk.
    payload.on('data', (chunk: Buffer) => chunks.push(chunk));
    payload.on('end', () => cache.addEncoded(pending.key, entry, acceptEncoding, encoding, Buffer.concat(chunks)));
    payload.on('error', (e) => copy.destroy(e));
    payload.pipe(copy);
    done(null, copy);
  };
  app.addHook('onRoute', (route) => {
    if (!route.config?.readModel) return;
    const methods = [route.method].flat();
    if (methods.some((m) => m !== 'GET' && m !== 'HEAD')) throw new Error(`${route.url}: readModel is for GET routes`);
    route.onSend = [...(route.onSend ? [route.onSend].flat() : []), keepEncoded];
  });
  return cache;
}
