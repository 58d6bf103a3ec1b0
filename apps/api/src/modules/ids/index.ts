import type { App, AppDeps } from '../../http/types.ts';
import { catalogueOfferCatalog } from '../carts/index.ts';
import { priceStrategyOf } from '../catalogue/index.ts';
import { IdsService } from './ids.service.ts';
import { idsEntryRoutes } from './ids-entry.routes.ts';
import { idsRoutes } from './ids.routes.ts';

export { IdsService } from './ids.service.ts';
export { idsEntryRoutes } from './ids-entry.routes.ts';
export { idsRoutes } from './ids.routes.ts';

/** IDS-Connect: the entry for craftsman software (/ids) and the /v1 calls of the SPA (docs/ids.md). */
export async function idsModule(app: App, deps: AppDeps) {
  const service = new IdsService(deps, catalogueOfferCatalog(deps.db, priceStrategyOf(deps)));
  await idsEntryRoutes(service)(app, deps);
  await idsRoutes(service)(app);
}

// What punchout (OCI, cXML) shares with IDS: its sessions are IDS sessions, so login throttling, the German
// error pages, the hook URL check and the return page (script, policy, frame target) are the same.
export { idsErrorPage, sendIdsLocked } from './ids-login-throttle.ts';
export { isWebUrl } from './ids-fields.ts';
export { RETURN_SCRIPT, formTarget, returnPageSecurityPolicy } from './return-form.ts';
export { IDS_CODE_TTL_SECONDS, IDS_RETURN_TTL_SECONDS } from './ids.service.ts';
