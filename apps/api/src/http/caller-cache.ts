import type pg from 'pg';
import { LRUCache } from 'lru-cache';
import { listenChannel } from '../db/listen.ts';
import type { Caller } from './auth.ts';

/** A token's outcome of the auth hook's reads: its grant was active, its user is this caller, its IDS context open. */
interface Entry {
  caller: Readonly<Caller>;
  grantId: string | null;
}

/** How long to wait before connecting the listener again after it was lost. */
const RECONNECT_MS = 1_000;

/**
 * The auth hook's reads per bearer token (grant not revoked, the user row with role and partners, the IDS context
 * still open), kept in process while LISTEN auth_changes (migration 0195) is connected: every change of a user, of
 * a partner membership, a sign-out (revoked grant) or an IDS context's completion arrives as a notification at its
 * commit and drops the entries it concerns. A repeat caller then costs no statement.
 *
 * Correctness across processes: an entry is only kept when no notification arrived while it was read (a change
 * committed during the read could otherwise be cached as the old state), and only while the listener is
 * connected: before it connects and after it is lost every request reads the database as before, and the entries
 * are dropped (changes may have been missed). What remains is the delivery time of a notification (a commit on
 * another process reaches this one's listener within about a millisecond, before any answer to the changing request).
 */
export class CallerCache {
  /** The tokens of each user with an entry (kept by the cache's dispose). */
  private readonly tokensOfUser = new Map<string, Set<string>>();
  private readonly entries = new LRUCache<string, Entry>({
    max: 10_000,
    dispose: (entry, token) => {
      const tokens = this.tokensOfUser.get(entry.caller.userId);
      tokens?.delete(token);
      if (tokens?.size === 0) this.tokensOfUser.delete(entry.caller.userId);
    },
  });
  /** Raised by every notification and every change of the listener's state. */
  private generation = 0;
  private listening = false;
  private stop: (() => Promise<void>) | null = null;
  private closed = false;
  private reconnect: NodeJS.Timeout | null = null;
  /** Notifications received (tests wait for a change's delivery with it). */
  notifications = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly log?: { warn: (o: object, m: string) => void },
  ) {}

  /** Connects the listener (failures are logged; the cache stays off and a new attempt follows). */
  async start(): Promise<void> {
    if (this.closed || this.stop) return;
    try {
      const stop = await listenChannel(
        this.pool,
        'auth_changes',
        (payload) => this.changed(payload),
        (e) => this.lost(e),
      );
      if (this.closed) {
        await stop();
        return;
      }
      this.stop = stop;
      this.generation++;
      this.listening = true;
    } catch (e) {
      this.log?.warn({ err: e }, 'caller cache: LISTEN auth_changes failed, reading callers per request');
      this.scheduleReconnect();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    this.entries.clear();
    if (this.reconnect) clearTimeout(this.reconnect);
    const stop = this.stop;
    this.stop = null;
    await stop?.();
  }

  /** The listener is connected (entries are kept and used). */
  get connected(): boolean {
    return this.listening;
  }

  /** The cached outcome for a token, only while the listener is connected. */
  get(token: string): Entry | undefined {
    return this.listening ? this.entries.get(token) : undefined;
  }

  /** Taken before the reads; set() keeps their outcome only if nothing changed meanwhile. */
  ticket(): number | null {
    return this.listening ? this.generation : null;
  }

  set(token: string, ticket: number | null, caller: Caller, grantId: string | null): void {
    if (ticket === null || !this.listening || ticket !== this.generation) return;
    const frozen = Object.freeze({ ...caller, partners: Object.freeze([...caller.partners]) as string[] });
    this.entries.set(token, { caller: frozen, grantId });
    const tokens = this.tokensOfUser.get(caller.userId);
    if (tokens) tokens.add(token);
    else this.tokensOfUser.set(caller.userId, new Set([token]));
  }

  /**
   * Drops a user's entries at once, without waiting for the notification: called when this process answers a
   * request that changed its own caller (routes with config.changesCaller: a partner switch, an IDS completion), so
   * that the user's next request, which may reach this process before the notification does, reads the new state.
   */
  forget(userId: string): void {
    this.generation++;
    this.dropUser(userId);
  }

  /** Drops the tokens of a grant at once: called by this process's identity provider when it ended the grant. */
  forgetGrant(grantId: string): void {
    this.changed(`grant:${grantId}`, false);
  }

  private dropUser(userId: string): void {
    const tokens = this.tokensOfUser.get(userId);
    if (!tokens) return;
    for (const token of [...tokens]) this.entries.delete(token);
    this.tokensOfUser.delete(userId);
  }

  /** Drops the entries of a user, grant or IDS context (what a notification names); anything else drops all. */
  private changed(payload: string, notified = true): void {
    this.generation++;
    if (notified) this.notifications++;
    const colon = payload.indexOf(':');
    const kind = payload.slice(0, colon);
    const id = payload.slice(colon + 1);
    if (kind === 'user') {
      this.dropUser(id);
      return;
    }
    const matches =
      kind === 'grant'
        ? (e: Entry) => e.grantId === id
        : kind === 'ids'
          ? (e: Entry) => e.caller.idsContextId === id
          : null;
    if (!matches) {
      this.entries.clear();
      return;
    }
    const drop: string[] = [];
    this.entries.forEach((entry, token) => {
      if (matches(entry)) drop.push(token);
    });
    for (const token of drop) this.entries.delete(token);
  }

  private lost(e: Error): void {
    this.listening = false;
    this.generation++;
    this.entries.clear();
    const stop = this.stop;
    this.stop = null;
    void stop?.();
    if (this.closed) return;
    this.log?.warn({ err: e }, 'caller cache: change notifications lost, reading callers per request');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnect) return;
    this.reconnect = setTimeout(() => {
      this.reconnect = null;
      void this.start();
    }, RECONNECT_MS);
    this.reconnect.unref();
  }
}
