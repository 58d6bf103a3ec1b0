import type { App, AppDeps } from '../http/types.ts';
import { healthRoutes } from './health/health.routes.ts';
import { profileRoutes } from './profile/profile.routes.ts';
import { settingsRoutes } from './settings/settings.routes.ts';
import { feedbackRoutes } from './feedback/feedback.routes.ts';
import { supportRoutes } from './support/support.routes.ts';
import { clientConfigRoutes } from './identity/client-config.routes.ts';
import { relationsRoutes } from './relations/relations.routes.ts';
import { supplierReadRoutes } from './suppliers/suppliers.routes.ts';
import { addressesRoutes } from './addresses/addresses.routes.ts';
import { projectsRoutes } from './projects/projects.routes.ts';
import { ordersRoutes } from './orders/orders.routes.ts';
import { cartRoutes } from './carts/carts.routes.ts';
import { cartItemRoutes } from './carts/cart-items.routes.ts';
import { catalogueOfferCatalog } from './carts/catalogue-offers.ts';
import { registerOrderTransmission } from './orders/transmission.ts';
import { catalogueRoutes } from './catalogue/catalogue.routes.ts';

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
  addressesRoutes,
  projectsRoutes,
  ordersRoutes,
  catalogueRoutes,
  async (app, deps) => {
    const offers = catalogueOfferCatalog(deps.db);
    await cartRoutes(offers)(app, deps);
    await cartItemRoutes(offers)(app, deps);
    registerOrderTransmission(deps);
  },
];
