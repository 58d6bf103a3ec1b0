import type { App, AppDeps } from '../http/types.ts';
import { healthRoutes } from './health/index.ts';
import { profileRoutes } from './profile/index.ts';
import { settingsRoutes } from './settings/index.ts';
import { feedbackRoutes } from './feedback/index.ts';
import { supportRoutes } from './support/index.ts';
import { clientConfigRoutes, passwordRoutes } from './identity/index.ts';
import { relationsRoutes } from './relations/index.ts';
import { supplierReadRoutes, supplierAdminRoutes, workflowAdminRoutes } from './suppliers/index.ts';
import { customParameterRoutes } from './custom-parameters/index.ts';
import { addressesRoutes } from './addresses/index.ts';
import { projectsRoutes } from './projects/index.ts';
import { ordersRoutes, checkoutRoutes, reorderRoutes } from './orders/index.ts';
import { supplierOrdersRoutes, inboundRoutes } from './supplier-orders/index.ts';
import { cartRoutes, cartItemRoutes, catalogueOfferCatalog, quickOrderRoutes } from './carts/index.ts';
import { priceStrategyOf, catalogueRoutes } from './catalogue/index.ts';
import { transmissionModule } from './transmission/index.ts';
import { catalogueImportRoutes } from './catalogue-import/index.ts';
import { dashboardRoutes } from './dashboard/index.ts';
import { reportsRoutes } from './reports/index.ts';
import { idsModule } from './ids/index.ts';
import { punchoutModule } from './punchout/index.ts';
import { configuratorRoutes } from './configurator/index.ts';

/** Every domain module registers its routes here, in one place. */
export const modules: Array<(app: App, deps: AppDeps) => Promise<void>> = [
  healthRoutes,
  profileRoutes,
  settingsRoutes,
  feedbackRoutes,
  supportRoutes,
  clientConfigRoutes,
  passwordRoutes,
  relationsRoutes,
  supplierReadRoutes,
  supplierAdminRoutes,
  workflowAdminRoutes,
  customParameterRoutes,
  addressesRoutes,
  projectsRoutes,
  ordersRoutes,
  supplierOrdersRoutes,
  inboundRoutes,
  catalogueRoutes,
  catalogueImportRoutes,
  dashboardRoutes,
  reportsRoutes,
  idsModule,
  punchoutModule,
  configuratorRoutes,
  async (app, deps) => {
    const prices = priceStrategyOf(deps);
    const offers = catalogueOfferCatalog(deps.db, prices);
    // Offers from the portal's catalogue (catalogue version) + the strategy's stamp: the overview keeps cart totals.
    await cartRoutes(offers, (buyerBpNumber) => prices.cacheStamp?.({ buyerBpNumber }) ?? null)(app, deps);
    await checkoutRoutes(offers)(app, deps);
    await reorderRoutes(offers)(app, deps);
    await cartItemRoutes(offers)(app, deps);
    await quickOrderRoutes(offers)(app, deps);
  },
  transmissionModule,
];
