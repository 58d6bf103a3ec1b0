import { api } from './client';
import { unwrap } from './problem';
import { usePartnerQuery } from './session';
import type { components } from './schema';

export type ConfiguratorSlide = components['schemas']['ConfiguratorSlide'];

/** The kitchen-configurator slide of the caller (GET /v1/KitchenConfigurator/Slide), cached per partner. */
export function useConfiguratorSlide() {
  return usePartnerQuery(
    ['kitchenConfiguratorSlide'],
    async (): Promise<ConfiguratorSlide> => unwrap(await api.GET('/v1/KitchenConfigurator/Slide')),
    // The link carries a short-lived token: refreshed before following it (see PromotionSlideshow).
    { staleTime: 60_000 },
  );
}

export const configuratorApi = {
  /** A fresh slide answer with a new token, read right before the link is followed. */
  slide: async (): Promise<ConfiguratorSlide> => unwrap(await api.GET('/v1/KitchenConfigurator/Slide')),
  /** Checks the configurator's signed return; throws an ApiError with the German reason otherwise. */
  verifyReturn: async (body: {
    articleNumber: string;
    supplierId: string;
    partner?: string;
    expires?: string;
    signature?: string;
  }) => unwrap(await api.POST('/v1/KitchenConfigurator/Return/Verify', { body })),
};
