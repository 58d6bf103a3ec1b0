import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { User, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import type * as AuthSessionModule from './auth-session';

let mod: typeof AuthSessionModule;

beforeAll(async () => {
  // The API client reads the page's origin when its module loads.
  vi.stubGlobal('window', { location: { origin: 'http://portal.test' } });
  mod = await import('./auth-session');
});

afterEach(() => {
  vi.useRealTimers();
});

const config = { authority: 'http://portal.test/oidc', clientId: 'portal-spa', callbackPath: '/auth-callback' };
const now = () => Math.floor(Date.now() / 1000);

/** Web Storage as in the browser (getItem answers null for a missing key). */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    key: (index) => [...items.keys()][index] ?? null,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  };
}

/** A browser tab: its sessionStorage and localStorage, the address, and oidc-client-ts's UserManager on the same store. */
function tab({ pathname = '/suche', search = '' } = {}) {
  const sessionStorage = memoryStorage();
  const localStorage = memoryStorage();
  const userManager = new UserManager({
    authority: config.authority,
    client_id: config.clientId,
    redirect_uri: 'http://portal.test/auth-callback',
    userStore: new WebStorageStateStore({ store: sessionStorage }),
    stateStore: new WebStorageStateStore({ store: memoryStorage() }),
  });
  const timers: { callback: () => void; ms: number }[] = [];
  const loadUserManager = vi.fn(async () => userManager);
  const forgetAuthParams = vi.fn();
  const session = () =>
    new mod.AuthSession({
      config,
      loadUserManager,
      sessionStorage,
      localStorage,
      location: { pathname, search, hash: '' },
      forgetAuthParams,
      setTimeout: (callback, ms) => timers.push({ callback, ms }),
    });
  /** What oidc-client-ts does when a sign-in succeeds: stores the user and raises 'user loaded'. */
  const signedIn = async (token: string, expiresIn = 300, state?: unknown) => {
    const user = new User({
      access_token: token,
      token_type: 'Bearer',
      profile: { sub: 'u1', iss: config.authority, aud: config.clientId, exp: 0, iat: 0 },
      expires_at: now() + expiresIn,
      userState: state,
    });
    await userManager.storeUser(user);
    await userManager.events.load(user);
    return user;
  };
  return { sessionStorage, localStorage, userManager, loadUserManager, forgetAuthParams, timers, session, signedIn };
}

describe('the stored user', () => {
  it('is read where and as oidc-client-ts stores it (key, JSON, expires_at)', async () => {
    const t = tab();
    const stored = new User({
      access_token: 'at-1',
      token_type: 'Bearer',
      profile: { sub: 'u1', iss: '', aud: '', exp: 0, iat: 0 },
      expires_at: now() + 300,
    });
    await t.userManager.storeUser(stored);
    expect(t.sessionStorage.getItem(mod.storedUserKey(config))).toBe(stored.toStorageString());
    const user = t.session().storedUser();
    expect(user).toMatchObject({ access_token: 'at-1', expires_at: stored.expires_at, profile: { sub: 'u1' } });
    // oidc-client-ts reads the same entry back.
    expect((await t.userManager.getUser())?.access_token).toBe('at-1');
  });

  it('is none when nothing (or garbage) is stored', () => {
    const t = tab();
    expect(t.session().storedUser()).toBeNull();
    t.sessionStorage.setItem(mod.storedUserKey(config), '{not json');
    expect(t.session().storedUser()).toBeNull();
    t.sessionStorage.setItem(mod.storedUserKey(config), '{"expires_at":1}');
    expect(t.session().storedUser()).toBeNull();
  });

  it("expires as oidc-client-ts's User.expired says: at expires_at (whole seconds), never without it", () => {
    const at = 1_800_000_000;
    for (const offset of [-1, 0, 1, 2]) {
      const nowMs = (at + offset) * 1000 + 500;
      const expected = new User({ access_token: 'a', token_type: 'Bearer', profile: {} as never, expires_at: at });
      vi.useFakeTimers({ now: nowMs });
      expect(mod.isExpired({ access_token: 'a', expires_at: at }, nowMs)).toBe(expected.expired);
      vi.useRealTimers();
    }
    expect(mod.isExpired({ access_token: 'a', expires_at: at }, (at - 1) * 1000)).toBe(false);
    expect(mod.isExpired({ access_token: 'a', expires_at: at }, at * 1000)).toBe(true);
    expect(mod.isExpired({ access_token: 'a' })).toBe(false);
  });
});

describe('a page load with a stored, unexpired token', () => {
  it('is signed in before the first render and sends the stored token without loading oidc-client-ts', async () => {
    const t = tab();
    await t.signedIn('at-valid');
    const session = t.session();
    expect(session.getState()).toMatchObject({ isLoading: false, isAuthenticated: true });
    await session.restore();
    session.start();
    expect(await session.getAccessToken()).toBe('at-valid');
    expect(session.getState()).toMatchObject({ isLoading: false, isAuthenticated: true });
    expect(t.loadUserManager).not.toHaveBeenCalled();
  });

  it('starts oidc-client-ts (its automatic renewal) two minutes before the token expires', async () => {
    const t = tab();
    await t.signedIn('at-valid', 300);
    const session = t.session();
    await session.restore();
    session.start();
    expect(t.timers).toHaveLength(1);
    expect(t.timers[0].ms).toBeGreaterThanOrEqual((300 - mod.RENEWAL_START_SECONDS - 1) * 1000);
    expect(t.timers[0].ms).toBeLessThanOrEqual((300 - mod.RENEWAL_START_SECONDS) * 1000);
    expect(t.loadUserManager).not.toHaveBeenCalled();
    t.timers[0].callback();
    expect(t.loadUserManager).toHaveBeenCalledTimes(1);
    // A renewal by the library updates the state.
    await session.userManager();
    await t.signedIn('at-renewed');
    expect(session.getState().user?.access_token).toBe('at-renewed');
    expect(await session.getAccessToken()).toBe('at-renewed');
  });

  it('after the page has loaded when less than two minutes are left, at once when the 60 s lead is at stake', async () => {
    const due = async (expiresIn: number) => {
      const t = tab();
      await t.signedIn('at-valid', expiresIn);
      t.session().start();
      return t.timers.map((timer) => Math.round(timer.ms / 1000));
    };
    expect(await due(100)).toEqual([mod.PAGE_LOAD_SECONDS]);
    // 66 s left: the library needs to start by 6 s (its renewal 60 s ahead); a second may pass meanwhile.
    expect((await due(66))[0]).toBeGreaterThanOrEqual(3);
    expect((await due(66))[0]).toBeLessThanOrEqual(4);
    expect(await due(30)).toEqual([0]);
  });
});

describe('renewal and silent sign-in (these load oidc-client-ts)', () => {
  it('an expired stored token is renewed before the first render; concurrent requests share one renewal', async () => {
    const t = tab();
    await t.signedIn('at-old', -60);
    const session = t.session();
    expect(session.getState().isAuthenticated).toBe(false);
    const signinSilent = vi.spyOn(t.userManager, 'signinSilent').mockImplementation(() => t.signedIn('at-new'));
    await session.restore();
    expect(t.loadUserManager).toHaveBeenCalledTimes(1);
    expect(signinSilent).toHaveBeenCalledTimes(1);
    expect(session.getState()).toMatchObject({ isLoading: false, isAuthenticated: true });
    expect(await session.getAccessToken()).toBe('at-new');

    // Expired again while the page is open: two requests at once, one renewal.
    await t.signedIn('at-old', -1);
    const [a, b] = await Promise.all([session.getAccessToken(), session.getAccessToken()]);
    expect([a, b]).toEqual(['at-new', 'at-new']);
    expect(signinSilent).toHaveBeenCalledTimes(2);
  });

  it('a renewal the provider refuses forgets the user, the hint and the cached data', async () => {
    const t = tab();
    await t.signedIn('at-old', -60);
    t.localStorage.setItem(mod.SIGNED_IN_HINT, '1');
    const session = t.session();
    const unloaded = vi.fn();
    session.onUserUnloaded(unloaded);
    vi.spyOn(t.userManager, 'signinSilent').mockRejectedValue(new Error('login_required'));
    expect(await session.getAccessToken()).toBeNull();
    expect(session.storedUser()).toBeNull();
    expect(t.localStorage.getItem(mod.SIGNED_IN_HINT)).toBeNull();
    expect(unloaded).toHaveBeenCalledTimes(1);
    expect(session.getState()).toMatchObject({ isAuthenticated: false, user: undefined });
  });

  it('a new tab (no stored user) signs in silently when this browser was signed in, and not otherwise', async () => {
    const t = tab();
    const signinSilent = vi.spyOn(t.userManager, 'signinSilent').mockImplementation(() => t.signedIn('at-tab'));
    const anonymous = t.session();
    await anonymous.restore();
    expect(t.loadUserManager).not.toHaveBeenCalled();
    expect(anonymous.getState()).toMatchObject({ isLoading: false, isAuthenticated: false });

    t.localStorage.setItem(mod.SIGNED_IN_HINT, '1');
    const session = t.session();
    await session.restore();
    expect(signinSilent).toHaveBeenCalledTimes(1);
    expect(session.getState()).toMatchObject({ isAuthenticated: true, user: { access_token: 'at-tab' } });
  });

  it('may sign in with a stored user (even expired), this browser’s hint or on the callback; a first visitor not', async () => {
    const firstVisit = tab();
    expect(firstVisit.session().maySignIn()).toBe(false);
    const expired = tab();
    await expired.signedIn('at-old', -60);
    expect(expired.session().maySignIn()).toBe(true);
    const hinted = tab();
    hinted.localStorage.setItem(mod.SIGNED_IN_HINT, '1');
    expect(hinted.session().maySignIn()).toBe(true);
    expect(tab({ pathname: '/auth-callback', search: '?code=c1&state=s1' }).session().maySignIn()).toBe(true);
  });

  it('a failed silent sign-in drops the hint (the provider session is gone)', async () => {
    const t = tab();
    t.localStorage.setItem(mod.SIGNED_IN_HINT, '1');
    vi.spyOn(t.userManager, 'signinSilent').mockRejectedValue(new Error('login_required'));
    const session = t.session();
    await session.restore();
    expect(t.localStorage.getItem(mod.SIGNED_IN_HINT)).toBeNull();
    expect(session.getState().isAuthenticated).toBe(false);
  });
});

describe('the sign-in callback', () => {
  it('is loading until oidc-client-ts completed it; the user carries the state (returnTo), the address is cleaned', async () => {
    const t = tab({ pathname: '/auth-callback', search: '?code=c1&state=s1' });
    const session = t.session();
    expect(session.getState()).toEqual({ isLoading: true, isAuthenticated: false });
    vi.spyOn(t.userManager, 'signinCallback').mockImplementation(() =>
      t.signedIn('at-fresh', 300, { returnTo: '/warenkorb' }),
    );
    await session.restore();
    expect(session.getState().isLoading).toBe(true);
    session.start();
    await vi.waitFor(() => expect(t.forgetAuthParams).toHaveBeenCalled());
    expect(session.getState()).toMatchObject({ isAuthenticated: true, user: { state: { returnTo: '/warenkorb' } } });
    expect(t.localStorage.getItem(mod.SIGNED_IN_HINT)).toBe('1');
  });

  it('reports an error the landing page shows', async () => {
    const t = tab({ pathname: '/auth-callback', search: '?error=access_denied&state=s1' });
    vi.spyOn(t.userManager, 'signinCallback').mockRejectedValue(new Error('access_denied'));
    const session = t.session();
    session.start();
    await vi.waitFor(() => expect(session.getState().isLoading).toBe(false));
    expect(session.getState()).toMatchObject({ isAuthenticated: false, error: { message: 'access_denied' } });
  });
});

describe('signing out and forgetting the user', () => {
  it('removeUser without the library loaded forgets the stored user, the hint and the cached data', async () => {
    const t = tab();
    await t.signedIn('at-valid');
    t.localStorage.setItem(mod.SIGNED_IN_HINT, '1');
    const session = t.session();
    const unloaded = vi.fn();
    session.onUserUnloaded(unloaded);
    await session.removeUser();
    expect(t.loadUserManager).not.toHaveBeenCalled();
    expect(t.sessionStorage.getItem(mod.storedUserKey(config))).toBeNull();
    expect(t.localStorage.getItem(mod.SIGNED_IN_HINT)).toBeNull();
    expect(unloaded).toHaveBeenCalledTimes(1);
    expect(session.getState()).toMatchObject({ isAuthenticated: false, user: undefined });
    expect(await session.getAccessToken()).toBeNull();
  });

  it('removeUser with the library loaded goes through it (its timers stop), once', async () => {
    const t = tab();
    await t.signedIn('at-valid');
    const session = t.session();
    const unloaded = vi.fn();
    session.onUserUnloaded(unloaded);
    await session.userManager();
    await session.removeUser();
    expect(await t.userManager.getUser()).toBeNull();
    expect(unloaded).toHaveBeenCalledTimes(1);
  });

  it('signoutRedirect goes to the provider through oidc-client-ts and rejects when it fails', async () => {
    const t = tab();
    await t.signedIn('at-valid');
    const session = t.session();
    const signout = vi.spyOn(t.userManager, 'signoutRedirect').mockRejectedValue(new Error('offline'));
    await expect(session.signoutRedirect()).rejects.toThrow('offline');
    expect(signout).toHaveBeenCalledTimes(1);
  });

  it('signinRedirect passes the state on and reports a failure as an error', async () => {
    const t = tab();
    const signin = vi.spyOn(t.userManager, 'signinRedirect').mockRejectedValue(new Error('offline'));
    const session = t.session();
    await session.signinRedirect({ state: { returnTo: '/suche' } });
    expect(signin).toHaveBeenCalledWith({ state: { returnTo: '/suche' } });
    expect(session.getState()).toMatchObject({ isLoading: false, error: { message: 'offline' } });
  });
});
