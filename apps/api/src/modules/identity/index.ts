/**
 * Public face of the identity module: The embedded OpenID Connect provider, the SPA's client configuration, keys and password hashing.
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { clientConfigRoutes } from './client-config.routes.ts';
export { hashPassword, verifyPassword } from './password.ts';
export { loadOrCreateKeys, type IdentityKeys } from './keys.ts';
export { LoginLocked, LoginThrottle } from './login-throttle.ts';
export { passwordRoutes } from './passwords.routes.ts';
