import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messages } from '@shk/contracts';
import { catalogueApi, catalogueKeys } from './catalogue';
import { problemTitle } from './problem';
import { queryKeys } from './query-keys';
import { trackEcommerce, type AnalyticsItem } from '../lib/analytics';
import { toast } from '../lib/toast';

export interface FavouriteChange {
  productInstanceId: string;
  /** true: add, false: remove. */
  favourite: boolean;
  item: AnalyticsItem;
}

/**
 * Adds or removes a favourite (POST/DELETE /v1/FavoriteProducts?productInstanceId). Afterwards the
 * favourites and the catalogue reads (isFavorite flags) of the current partner are refreshed; a failure
 * shows the server's title as error toast (spec §8). `bpNumber`: the current partner (from the caller's profile read:
 * one profile observer per star instead of two – a search page has 25).
 */
export function useFavouriteToggle(bpNumber: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ productInstanceId, favourite }: FavouriteChange) =>
      favourite ? catalogueApi.addFavourite(productInstanceId) : catalogueApi.removeFavourite(productInstanceId),
    onSuccess: (_, { favourite, item }) => {
      trackEcommerce(favourite ? 'add_to_wishlist' : 'remove_from_wishlist', { items: [item] });
      void queryClient.invalidateQueries({ queryKey: queryKeys.partnerScoped(bpNumber, ...catalogueKeys.favourites) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.partnerScoped(bpNumber, ...catalogueKeys.all) });
    },
    onError: (error) => {
      toast.error(problemTitle(error, messages.genericRetry));
    },
  });
}
