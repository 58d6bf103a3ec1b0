import type { UserManager } from 'oidc-client-ts';
import { api } from './client';
import type { ClientConfig } from './types';

/*
 * The browser's sign-in state without the OIDC library. oidc-client-ts (with jwt-decode, ~20 kB brotli)
 * is needed only to talk to the identity provider: the sign-in redirect and its callback, silent renewal, sign-out.
 * A page load with a stored, unexpired token needs none of that before its first render, so this module reads the
 * user oidc-client-ts stored in sessionStorage itself and loads the library (`loadUserManager`, a dynamic import in
 * main.tsx) only when it has to talk to the provider. The format read here is oidc-client-ts's own: the key
 * `oidc.` + `user:<authority>:<client_id>` (WebStorageStateStore's prefix, UserManager._userStoreKey) and the JSON
 * of User.toStorageString (`access_token`, `expires_at` in epoch seconds, `profile`, …).
 */

/** Reads where and how to sign in (GET /v1/ClientConfig), so one build serves every deployment. */
export async function loadClientConfig(): Promise<ClientConfig> {
  const { data, response } = await api.GET('/v1/ClientConfig');
  if (!data) throw new Error(`ClientConfig: HTTP ${response.status}`);
  return data;
}

/**
 * Marks (in localStorage, without any token) that this browser signed in, so that a new tab or window first
 * asks the provider session silently instead of showing 'Willkommen'. Removed when the user signs out or the
 * provider session is gone.
 */
export const SIGNED_IN_HINT = 'shk.signedIn';

/** Seconds before the token expires when the UserManager (and with it oidc-client-ts's automatic renewal) starts. */
export const RENEWAL_START_SECONDS = 120;

/** Seconds after the start that a due renewal waits, so the library does not compete with the page's own load. */
export const PAGE_LOAD_SECONDS = 10;

/** What the app reads of the signed-in user (a subset of oidc-client-ts's User, stored or just signed in). */
export interface SessionUser {
  access_token: string;
  /** Epoch seconds; none: the token does not expire (oidc-client-ts: `expired` is undefined). */
  expires_at?: number;
  profile?: Record<string, unknown>;
  /** The state given to the sign-in redirect ({ returnTo }); only on the user the sign-in callback returned. */
  state?: unknown;
}

/** The facts the app uses (react-oidc-context's names): the guard, the header, the sign-in landing. */
export interface AuthState {
  isLoading: boolean;
  isAuthenticated: boolean;
  user?: SessionUser;
  error?: Error;
}

/** Where oidc-client-ts keeps the user (WebStorageStateStore with its default prefix 'oidc.'). */
export function storedUserKey(config: Pick<ClientConfig, 'authority' | 'clientId'>): string {
  return `oidc.user:${config.authority}:${config.clientId}`;
}

/** oidc-client-ts's `User.expired`: true once `expires_at` has passed (whole seconds), false without expiry. */
export function isExpired(user: SessionUser, nowMs = Date.now()): boolean {
  return user.expires_at !== undefined && user.expires_at - Math.floor(nowMs / 1000) <= 0;
}

/** A response of the authorization endpoint in the address (react-oidc-context's hasAuthParams). */
function hasAuthParams(location: Pick<Location, 'search' | 'hash'>): boolean {
  for (const query of [location.search, location.hash.replace('#', '?')]) {
    const params = new URLSearchParams(query);
    if ((params.get('code') || params.get('error')) && params.get('state')) return true;
  }
  return false;
}

/**
 * Silent renewal loads the callback URL in a hidden iframe; there only the response is handed to the
 * parent window instead of starting the whole app.
 */
export function isSilentRenewFrame(callbackPath = '/auth-callback'): boolean {
  return window.parent !== window && window.location.pathname === callbackPath;
}

export interface AuthSessionOptions {
  config: Pick<ClientConfig, 'authority' | 'clientId' | 'callbackPath'>;
  /** Loads oidc-client-ts and creates the one UserManager (a dynamic import: not part of the entry script). */
  loadUserManager: () => Promise<UserManager>;
  /** The browser's by default; tests pass their own. */
  sessionStorage?: Storage;
  localStorage?: Storage;
  location?: Pick<Location, 'pathname' | 'search' | 'hash'>;
  /** Removes ?code=…&state=… from the address after the sign-in callback. */
  forgetAuthParams?: () => void;
  setTimeout?: (callback: () => void, ms: number) => unknown;
}

/**
 * One page load's sign-in state (an external store for React: subscribe/getState) and its way to the identity
 * provider. The UserManager is created on first need and then kept; its events (user loaded, unloaded, silent
 * renew error) update the state as react-oidc-context's AuthProvider did.
 */
export class AuthSession {
  private state: AuthState;
  private readonly listeners = new Set<() => void>();
  private readonly unloadListeners = new Set<() => void>();
  private manager: Promise<UserManager> | null = null;
  private renewing: Promise<string | null> | null = null;
  private readonly options: Required<AuthSessionOptions>;

  constructor(options: AuthSessionOptions) {
    this.options = {
      ...options,
      sessionStorage: options.sessionStorage ?? window.sessionStorage,
      localStorage: options.localStorage ?? window.localStorage,
      location: options.location ?? window.location,
      forgetAuthParams:
        options.forgetAuthParams ??
        (() => {
          // Without disturbing the router's history entry; not once the app has moved on to the landing page.
          if (window.location.pathname === options.config.callbackPath) {
            window.history.replaceState(window.history.state, '', window.location.pathname);
          }
        }),
      setTimeout: options.setTimeout ?? ((callback, ms) => window.setTimeout(callback, ms)),
    };
    this.state = this.isCallback() ? { isLoading: true, isAuthenticated: false } : this.storedState();
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getState = (): AuthState => this.state;

  /** Called whenever the user is forgotten (signed out, removed, provider session gone). */
  onUserUnloaded(listener: () => void): void {
    this.unloadListeners.add(listener);
  }

  /** The user oidc-client-ts stored for this tab, read synchronously; null when none (or unreadable). */
  storedUser(): SessionUser | null {
    try {
      const stored = this.options.sessionStorage.getItem(storedUserKey(this.options.config));
      const user = stored ? (JSON.parse(stored) as SessionUser | null) : null;
      return user && typeof user.access_token === 'string' ? user : null;
    } catch {
      return null;
    }
  }

  /**
   * Whether this page load may end signed in: a stored user (restore() renews an expired one), this browser's hint
   * of an earlier sign-in (restore() tries the provider session) or the sign-in callback. False for a first visitor,
   * who sees 'Willkommen' on every protected page.
   */
  maySignIn(): boolean {
    return (
      this.isCallback() || this.storedUser() !== null || this.options.localStorage.getItem(SIGNED_IN_HINT) !== null
    );
  }

  /** Where the identity provider sends the browser back after sign-in (a route of its own). */
  get callbackPath(): string {
    return this.options.config.callbackPath;
  }

  /** Whether oidc-client-ts has been asked for (for tests and the renewal schedule). */
  get userManagerRequested(): boolean {
    return this.manager !== null;
  }

  /**
   * Before the first render: a stored user whose token expired is renewed; a tab without a stored user (a new
   * tab, a closed and reopened browser) signs in silently through the provider session when this browser was
   * signed in. Not on the sign-in callback, which completes its own sign-in (start()). A stored, unexpired token
   * needs nothing here: oidc-client-ts is not loaded.
   */
  async restore(): Promise<void> {
    if (this.options.location.pathname === this.options.config.callbackPath) return;
    const user = this.storedUser();
    if (user) {
      if (isExpired(user)) await this.getAccessToken();
    } else if (this.options.localStorage.getItem(SIGNED_IN_HINT)) {
      try {
        await (await this.userManager()).signinSilent();
      } catch {
        this.options.localStorage.removeItem(SIGNED_IN_HINT);
      }
    }
    this.setState(this.storedState());
  }

  /**
   * After restore(), before the first render: completes the sign-in callback (the state stays loading until the
   * user is there), otherwise schedules the renewal before the token expires.
   */
  start(): void {
    if (this.isCallback()) {
      void this.completeSignin();
      return;
    }
    this.scheduleRenewal();
  }

  /**
   * The API's token source: the stored access token while it is valid (no library needed), renewed silently
   * through the provider session when it has expired (a tab that slept, a page opened after the token's few
   * minutes). Concurrent callers share one renewal; null when there is no user or the provider session is gone
   * too (then the user is forgotten and the guard shows 'Willkommen').
   */
  readonly getAccessToken = async (): Promise<string | null> => {
    const user = this.storedUser();
    if (!user) return null;
    if (!isExpired(user)) return user.access_token;
    this.renewing ??= this.renew().finally(() => (this.renewing = null));
    return this.renewing;
  };

  /** To the identity provider's login page; `state` comes back on the callback's user (returnTo). */
  readonly signinRedirect = async (args?: { state?: unknown }): Promise<void> => {
    this.setState({ ...this.state, isLoading: true });
    try {
      await (await this.userManager()).signinRedirect(args);
    } catch (error) {
      this.setState({ ...this.state, isLoading: false, error: asError(error) });
      return;
    }
    this.setState({ ...this.state, isLoading: false });
  };

  /**
   * Ends the provider session (revoking the refresh token) after forgetting the user. Rejects when the provider
   * cannot be reached, so the caller can at least forget the tokens locally.
   */
  readonly signoutRedirect = async (): Promise<void> => {
    await (await this.userManager()).signoutRedirect();
  };

  /** Forgets the stored user in this tab (the API refused the token, an IDS session ended). */
  readonly removeUser = async (): Promise<void> => {
    if (this.manager) {
      // Through the library, so its renewal timers stop; its 'unloaded' event lands in userUnloaded().
      await (await this.manager).removeUser();
      return;
    }
    this.options.sessionStorage.removeItem(storedUserKey(this.options.config));
    this.userUnloaded();
  };

  /** The one UserManager, loaded and created on first need (a failed load is tried again next time). */
  userManager(): Promise<UserManager> {
    this.manager ??= this.options.loadUserManager().then(
      (userManager) => {
        userManager.events.addUserLoaded((user) => this.userLoaded(user));
        userManager.events.addUserUnloaded(() => this.userUnloaded());
        userManager.events.addSilentRenewError((error) =>
          this.setState({ ...this.state, isLoading: false, error: asError(error) }),
        );
        return userManager;
      },
      (error: unknown) => {
        this.manager = null;
        throw error;
      },
    );
    return this.manager;
  }

  private isCallback(): boolean {
    const { location, config } = this.options;
    return location.pathname === config.callbackPath && hasAuthParams(location);
  }

  private storedState(): AuthState {
    const user = this.storedUser() ?? undefined;
    return { isLoading: false, isAuthenticated: user ? !isExpired(user) : false, user };
  }

  private async completeSignin(): Promise<void> {
    try {
      const user = (await (await this.userManager()).signinCallback()) ?? this.storedUser() ?? undefined;
      this.options.forgetAuthParams();
      this.setState({ isLoading: false, isAuthenticated: user ? !isExpired(user) : false, user });
    } catch (error) {
      this.options.forgetAuthParams();
      this.setState({ ...this.storedState(), error: asError(error) });
    }
  }

  /**
   * oidc-client-ts renews the token shortly before it expires (automaticSilentRenew, 60 s ahead) once its
   * UserManager exists. Creating it — and loading the library — is put off until RENEWAL_START_SECONDS before the
   * expiry, so a page view shorter than the token's life never loads it (the token source renews on demand anyway),
   * and, when that time has already come, until the page has loaded (PAGE_LOAD_SECONDS) as long as the library's
   * 60 s lead still holds then.
   */
  private scheduleRenewal(): void {
    const user = this.storedUser();
    if (!user || user.expires_at === undefined || this.manager) return;
    const secondsLeft = user.expires_at - Math.floor(Date.now() / 1000);
    const seconds = Math.max(secondsLeft - RENEWAL_START_SECONDS, Math.min(PAGE_LOAD_SECONDS, secondsLeft - 62), 0);
    this.options.setTimeout(
      () => {
        if (this.storedUser()) this.userManager().catch(() => undefined);
      },
      Math.min(seconds * 1000, 2 ** 31 - 1),
    );
  }

  private async renew(): Promise<string | null> {
    try {
      const user = await (await this.userManager()).signinSilent();
      return user && !isExpired(user) ? user.access_token : null;
    } catch {
      await this.removeUser();
      return null;
    }
  }

  private userLoaded(user: SessionUser): void {
    this.options.localStorage.setItem(SIGNED_IN_HINT, '1');
    this.setState({ isLoading: false, isAuthenticated: !isExpired(user), user, error: undefined });
  }

  private userUnloaded(): void {
    this.options.localStorage.removeItem(SIGNED_IN_HINT);
    this.setState({ ...this.state, user: undefined, isAuthenticated: false });
    for (const listener of this.unloadListeners) listener();
  }

  private setState(state: AuthState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
