import pg from 'pg';

/**
 * LISTEN on a channel over a connection of its own (not one of the pool's, which would be handed to other
 * queries); returns a stop function. The notification's payload goes to onNotify. A lost connection (server
 * restart, pg_terminate_backend, network) is reported once through onLost; the caller decides whether to
 * connect again. Used by the catalogue meta cache (catalogue_state, migration 0190), the search index
 * (search_changes, 0150), the caller cache (auth_changes, 0195) and the read-model cache (read_model_changes, 0215).
 *
 * The stop function also carries sync(): a round trip on the listening connection. Postgres sends a listener the
 * notifications of every transaction that committed before a statement of its own before that statement's answer,
 * so once sync() resolves, onNotify has seen every change committed before it was called.
 */
export async function listenChannel(
  pool: pg.Pool,
  channel: string,
  onNotify: (payload: string) => void,
  onLost: (e: Error) => void,
): Promise<ChannelListener> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
  const options = (pool as unknown as { options: pg.ClientConfig }).options;
  // Named after its channel in pg_stat_activity (its last statement may be a sync's SELECT 1, not the LISTEN).
  const client = new pg.Client({ connectionString: options.connectionString, application_name: `listen ${channel}` });
  let stopped = false;
  let lost = false;
  const reportLost = (e: Error) => {
    if (stopped || lost) return;
    lost = true;
    onLost(e);
  };
  client.on('notification', (message) => {
    if (message.channel === channel) onNotify(message.payload ?? '');
  });
  client.on('error', reportLost);
  client.on('end', () => reportLost(new Error(`LISTEN ${channel}: connection ended`)));
  try {
    await client.connect();
    await client.query(`LISTEN ${channel}`);
    // A listening connection writes nothing durable: its only writes are notifications (the read-model cache tells
    // the other processes its cart versions moved), which are not kept across a restart anyway. Their commits need
    // not wait for the WAL flush.
    await client.query('SET synchronous_commit TO off');
  } catch (e) {
    stopped = true;
    await client.end().catch(() => {});
    throw e;
  }
  const stop = async () => {
    stopped = true;
    await client.end().catch(() => {});
  };
  return Object.assign(stop, {
    sync: async () => {
      await client.query('SELECT 1');
    },
    query: async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
      (await client.query<R>(text, values)).rows,
  });
}

/**
 * Ends the listening connection; sync() waits until every change committed before the call has been notified;
 * query() runs a statement on the listening connection (its answer, too, comes after those notifications).
 */
export type ChannelListener = (() => Promise<void>) & {
  sync: () => Promise<void>;
  query: <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<R[]>;
};

/**
 * A LISTEN kept connected for an in-process cache (the caller cache, the read-model cache). While it is connected the
 * cache may keep what it reads; `generation` rises with every notification and every change of the connection, so a
 * cache keeps a read's outcome only when the generation is still the one it took before reading (ticket): nothing
 * changed meanwhile. A lost connection calls onLost — the cache drops everything, since changes may have been
 * missed — and a new connection is tried after reconnectMs; until then the cache reads per request.
 */
export class FollowedChannel {
  generation = 0;
  /** Connections made so far: a cache that keeps state about the database learns it anew on each (re)connect. */
  connections = 0;
  private listener: ChannelListener | null = null;
  private listening = false;
  private closed = false;
  private reconnect: NodeJS.Timeout | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly channel: string,
    private readonly handlers: { onNotify: (payload: string) => void; onLost: () => void },
    private readonly log?: { warn: (o: object, m: string) => void },
    private readonly reconnectMs = 1_000,
  ) {}

  /** Connects (a failure is logged and retried after reconnectMs). */
  async start(): Promise<void> {
    if (this.closed || this.listener) return;
    try {
      const listener = await listenChannel(
        this.pool,
        this.channel,
        (payload) => {
          this.generation++;
          this.handlers.onNotify(payload);
        },
        (e) => this.lost(e),
      );
      if (this.closed) {
        await listener();
        return;
      }
      this.listener = listener;
      this.generation++;
      this.connections++;
      this.listening = true;
    } catch (e) {
      this.log?.warn({ err: e }, `LISTEN ${this.channel} failed, reading per request`);
      this.scheduleReconnect();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    if (this.reconnect) clearTimeout(this.reconnect);
    const listener = this.listener;
    this.listener = null;
    await listener?.();
  }

  /** Notifications arrive: kept entries may be used. */
  get connected(): boolean {
    return this.listening;
  }

  /** Taken before a read; null while nothing may be kept. */
  ticket(): number | null {
    return this.listening ? this.generation : null;
  }

  /** Nothing changed since the ticket was taken (and the channel is still followed): the read may be kept. */
  unchangedSince(ticket: number | null): boolean {
    return ticket !== null && this.listening && ticket === this.generation;
  }

  /** A change the cache learnt of by itself (its own process's write): reads begun before it are not kept. */
  bump(): void {
    this.generation++;
  }

  /** A round trip on the listening connection (see listenChannel); nothing to wait for while not connected. */
  sync(): Promise<void> {
    return this.listener ? this.listener.sync() : Promise.resolve();
  }

  /** A statement on the listening connection (see ChannelListener.query); fails while not connected. */
  query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    return this.listener ? this.listener.query<R>(text, values) : Promise.reject(new Error('not listening'));
  }

  /** The connection is lost (or counts as lost, e.g. a sync that stalled): stop using it and connect again. */
  lost(e: Error): void {
    this.listening = false;
    this.generation++;
    const listener = this.listener;
    this.listener = null;
    void listener?.();
    this.handlers.onLost();
    if (this.closed) return;
    this.log?.warn({ err: e }, `LISTEN ${this.channel}: notifications lost, reading per request`);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnect) return;
    this.reconnect = setTimeout(() => {
      this.reconnect = null;
      void this.start();
    }, this.reconnectMs);
    this.reconnect.unref();
  }
}

/**
 * An in-process cache that follows a channel (the caller cache, the read-model cache): its entries are used only while
 * the listener is connected and are all dropped when it is lost (changes may have been missed); each notification's
 * payload goes to changed(), which drops the entries it concerns.
 */
export abstract class ChannelFollowingCache {
  protected readonly channel: FollowedChannel;
  protected abstract readonly entries: { clear(): void };
  /** Notifications received (tests wait for a change's delivery with it). */
  notifications = 0;

  constructor(pool: pg.Pool, channel: string, log?: { warn: (o: object, m: string) => void }) {
    this.channel = new FollowedChannel(
      pool,
      channel,
      {
        onNotify: (payload) => {
          this.notifications++;
          this.changed(payload);
        },
        onLost: () => {
          this.entries.clear();
          this.lostAll();
        },
      },
      log,
    );
  }

  /** Drops the entries a notification's payload concerns. */
  protected abstract changed(payload: string): void;

  /** The listener was lost: changes may have been missed (entries are already dropped); for subclasses' followers. */
  protected lostAll(): void {}

  /** Connects the listener (failures are logged; the cache stays off and a new attempt follows). */
  start(): Promise<void> {
    return this.channel.start();
  }

  async close(): Promise<void> {
    await this.channel.close();
    this.entries.clear();
  }

  /** The listener is connected (entries are kept and used). */
  get connected(): boolean {
    return this.channel.connected;
  }
}
