/**
 * The OpenAPI document of the API, built without a database or server: the routes are registered on an app whose
 * dependencies are never called (a route that reaches for the pool while registering breaks the generator).
 */
import { loadConfigWith } from '../config.ts';
import { buildApp } from '../app.ts';
import type { AppDeps } from '../http/types.ts';
import { Lifecycle } from '../lifecycle.ts';

export async function openApiDocument(): Promise<unknown> {
  const config = loadConfigWith({
    OIDC_ISSUER: 'http://issuer.invalid',
    WEB_DIST_DIR: '/nonexistent',
    LOG_LEVEL: 'silent',
  });
  const unused = new Proxy(
    {},
    {
      get: () => {
        throw new Error('not available while generating the OpenAPI document');
      },
    },
  );
  // The read-model cache takes db.$client when it registers (it only uses it on requests).
  const deps = {
    config,
    db: { $client: unused },
    pool: unused,
    jobs: { register() {} },
    mail: unused,
    // Modules hand their workers over; nothing starts them here.
    lifecycle: new Lifecycle(),
  } as unknown as AppDeps;
  const { app } = await buildApp({ ...deps, logger: false });
  try {
    await app.ready();
    return app.swagger();
  } finally {
    await app.close();
  }
}
