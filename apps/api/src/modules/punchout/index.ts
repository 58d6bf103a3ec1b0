import type { App, AppDeps } from '../../http/types.ts';
import { catalogueOfferCatalog } from '../carts/index.ts';
import { priceStrategyOf } from '../catalogue/index.ts';
import { PunchoutService } from './punchout.service.ts';
import { punchoutEntryRoutes } from './punchout-entry.routes.ts';
import { punchoutRoutes } from './punchout.routes.ts';

/** Punchout for procurement systems: OCI and cXML entries and the return to the requisition (docs/punchout.md). */
export async function punchoutModule(app: App, deps: AppDeps) {
  const service = new PunchoutService(deps, catalogueOfferCatalog(deps.db, priceStrategyOf(deps)));
  await punchoutEntryRoutes(service)(app, deps);
  await punchoutRoutes(service)(app);
}
