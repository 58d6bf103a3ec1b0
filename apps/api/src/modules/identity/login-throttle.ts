import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import { securityTexts } from '@shk/contracts';
import {
  dropOldFailures,
  forgetFailures,
  recordFailure,
  secondsBlocked,
  type DelayPolicy,
} from './login-throttle.repo.ts';

/**
 * Failed sign-ins of one account from one client address: five are free, then each further failure delays the next
 * attempt of that pair (30 s, 1, 2, 4, 8 minutes, at most 15). Someone guessing a password is slowed down; the owner
 * signing in from another address is not.
 */
export const PAIR_POLICY: DelayPolicy = { free: 5, baseSeconds: 30, maxSeconds: 15 * 60, forgetSeconds: 60 * 60 };
/**
 * Failed sign-ins from one client address, whatever the account (password spraying): 30 are free, then the same
 * progressive delay for the address. Successful sign-ins never count, so a whole office behind one NAT address
 * signs in freely.
 */
export const ADDRESS_POLICY: DelayPolicy = {
  free: 30,
  baseSeconds: 30,
  maxSeconds: 15 * 60,
  forgetSeconds: 60 * 60,
};

/** Thrown by the throttle; the login route renders it as its German page. */
export class LoginLocked extends Error {
  readonly statusCode = 429;
  constructor(readonly retryAfterSeconds: number) {
    super(securityTexts.loginDelayed(retryAfterSeconds));
  }
}

/** The login name of a sign-in form (case-insensitive). */
export const loginNameOf = (request: FastifyRequest) => {
  const body = request.body as { login?: unknown; username?: unknown } | undefined;
  const login = typeof body?.login === 'string' ? body.login : typeof body?.username === 'string' ? body.username : '';
  return login.trim().toLowerCase();
};

/**
 * Counts failed sign-ins in PostgreSQL (table sign_in_failures), so every API process sees the same counts: per
 * account and client address, and per client address. Only failures count, a success resets its pair, and a pair
 * or address beyond its free failures waits a growing delay (LoginLocked, 429) – even with the right password, for
 * that pair or address only. `scope` separates the portal login from other password checks (the IDS entry).
 */
export class LoginThrottle {
  private writes = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly scope: string,
  ) {}

  private keys(account: string, address: string) {
    return {
      pair: `${this.scope}:pair:${account.trim().toLowerCase()}|${address}`,
      address: `${this.scope}:address:${address}`,
    };
  }

  /** Throws LoginLocked while the pair or the address has to wait. */
  async check(account: string, address: string): Promise<void> {
    const { pair, address: perAddress } = this.keys(account, address);
    const seconds = await secondsBlocked(this.pool, [pair, perAddress]);
    if (seconds > 0) throw new LoginLocked(seconds);
  }

  async failed(account: string, address: string): Promise<void> {
    const { pair, address: perAddress } = this.keys(account, address);
    await recordFailure(this.pool, pair, PAIR_POLICY);
    await recordFailure(this.pool, perAddress, ADDRESS_POLICY);
    // Bounded table: forget old counters now and then.
    if (++this.writes % 1000 === 0) await dropOldFailures(this.pool);
  }

  async succeeded(account: string, address: string): Promise<void> {
    await forgetFailures(this.pool, this.keys(account, address).pair);
  }
}
