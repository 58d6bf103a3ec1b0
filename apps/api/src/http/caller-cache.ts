import type pg from 'pg';
import { LRUCache } from 'lru-cache';
import { ChannelFollowingCache } from '../db/listen.ts';
import type { Caller } from './caller.ts';

/** A token's outcome of the auth hook's reads: its grant was active, its user is this caller, its IDS context open. */
interface Entry {
  caller: Readonly<Caller>;
  grantId: string | null;
  /** After this time (ms) the entry is read again (an IDS session's idle time and its last use). */
  recheckAt?: number;
}

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
export class CallerCache extends ChannelFollowingCache {
  /** The tokens of each user with an entry (kept by the cache's dispose). */
  private readonly tokensOfUser = new Map<string, Set<string>>();
  protected readonly entries = new LRUCache<string, Entry>({
    max: 10_000,
    dispose: (entry, token) => {
      const tokens = this.tokensOfUser.get(entry.caller.userId);
      tokens?.delete(token);
      if (tokens?.size === 0) this.tokensOfUser.delete(entry.caller.userId);
    },
  });
  /** LISTEN auth_changes: its generation tells whether anything changed while a caller was read. */
  constructor(pool: pg.Pool, log?: { warn: (o: object, m: string) => void }) {
    super(pool, 'auth_changes', log);
  }

  /** The cached outcome for a token, only while the listener is connected. */
  get(token: string): Entry | undefined {
    if (!this.channel.connected) return undefined;
    const entry = this.entries.get(token);
    return entry && (entry.recheckAt === undefined || entry.recheckAt > Date.now()) ? entry : undefined;
  }

  /** Taken before the reads; set() keeps their outcome only if nothing changed meanwhile. */
  ticket(): number | null {
    return this.channel.ticket();
  }

  set(token: string, ticket: number | null, caller: Caller, grantId: string | null, recheckAt?: number): void {
    if (!this.channel.unchangedSince(ticket)) return;
    const frozen = Object.freeze({ ...caller, partners: Object.freeze([...caller.partners]) as string[] });
    this.entries.set(token, { caller: frozen, grantId, recheckAt });
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
    this.channel.bump();
    this.dropUser(userId);
  }

  /** Drops the tokens of a grant at once: called by this process's identity provider when it ended the grant. */
  forgetGrant(grantId: string): void {
    this.channel.bump();
    this.changed(`grant:${grantId}`);
  }

  private dropUser(userId: string): void {
    const tokens = this.tokensOfUser.get(userId);
    if (!tokens) return;
    for (const token of [...tokens]) this.entries.delete(token);
    this.tokensOfUser.delete(userId);
  }

  /** Drops the entries of a user, grant or IDS context (what a notification names); anything else drops all. */
  protected changed(payload: string): void {
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
}
