import type { App, AppDeps } from '../http/types.ts';
import { healthRoutes } from './health/health.routes.ts';
import { profileRoutes } from './profile/profile.routes.ts';
import { settingsRoutes } from './settings/settings.routes.ts';
import { feedbackRoutes } from './feedback/feedback.routes.ts';
import { supportRoutes } from './support/support.routes.ts';
import { clientConfigRoutes } from './identity/client-config.routes.ts';
import { relationsRoutes } from './relations/relations.routes.ts';
import { supplierReadRoutes } from './suppliers/suppliers.routes.ts';
import { supplierAdminRoutes } from './suppliers/suppliers-admin.routes.ts';
import { workflowAdminRoutes } from './suppliers/workflows-admin.routes.ts';
import { customParameterRoutes } from './custom-parameters/custom-parameters.routes.ts';
import { addressesRoutes } from './addresses/addresses.routes.ts';
import { projectsRoutes } from './projects/projects.routes.ts';
import { ordersRoutes } from './orders/orders.routes.ts';
import { supplierOrdersRoutes } from './supplier-orders/supplier-orders.routes.ts';
import { inboundRoutes } from './supplier-orders/inbound.routes.ts';
import { cartRoutes } from './carts/carts.routes.ts';
import { cartItemRoutes } from './carts/cart-items.routes.ts';
import { checkoutRoutes } from './orders/checkout.routes.ts';
import { catalogueOfferCatalog } from './carts/catalogue-offers.ts';
import { priceStrategyOf } from './catalogue/pricing/price-strategy.ts';
import { transmissionModule } from './transmission/index.ts';
import { catalogueRoutes } from './catalogue/catalogue.routes.ts';
import { catalogueImportRoutes } from './catalogue-import/catalogue-import.routes.ts';
import { quickOrderRoutes } from './carts/quick-order.routes.ts';
import { dashboardRoutes } from './dashboard/dashboard.routes.ts';
import { reportsRoutes } from './reports/reports.routes.ts';
import { idsModule } from './ids/index.ts';
import { punchoutModule } from './punchout/index.ts';
import { configuratorRoutes } from './configurator/configurator.routes.ts';

/** Every domain module registers its routes here, in one place. */
export const modules: Array<(app: App, deps: AppDeps) => Promise<void>> = [
  healthRoutes,
  profileRoutes,
  settingsRoutes,
  feedbackRoutes,
  supportRoutes,
  clientConfigRoutes,
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
    await cartItemRoutes(offers)(app, deps);
    await quickOrderRoutes(offers)(app, deps);
  },
  transmissionModule,
];
