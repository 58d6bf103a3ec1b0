import { lazy, Suspense, useEffect, useState } from 'react';
import { ActionIcon } from '@mantine/core';
import { Role } from '@shk/contracts';
import { useListedUserProfile } from '../../api/session';
import type { AnalyticsItem } from '../../lib/analytics';
import { useFavouriteToggle } from '../../api/use-favourite';
import { DeferredTooltip } from '../DeferredTooltip';
import { StarIcon } from '../icons';
import { useOpenedOnce } from '../use-opened-once';

// The confirmation (favourites page only) is loaded when it is first asked for: the cards on the search, product
// and home pages never need its Modal.
const RemoveFavouriteDialog = lazy(() =>
  import('./RemoveFavouriteDialog').then((m) => ({ default: m.RemoveFavouriteDialog })),
);

interface FavouriteButtonProps {
  productInstanceId: string;
  isFavorite: boolean;
  item: AnalyticsItem;
  /** Ask before removing (the favourites page); elsewhere a click removes directly. */
  confirmRemove?: boolean;
  size?: 'md' | 'lg';
  /** Called after a successful removal (e.g. to hide the card). */
  onRemoved?: () => void;
}

/** The favourite star; shown to buyers only (spec §6). */
export function FavouriteButton({
  productInstanceId,
  isFavorite,
  item,
  confirmRemove = false,
  size = 'lg',
  onRemoved,
}: FavouriteButtonProps) {
  const profile = useListedUserProfile().data;
  const role = profile?.role;
  const toggle = useFavouriteToggle(profile?.currentBpNumber ?? null);
  const [favourite, setFavourite] = useState(isFavorite);
  const [confirming, setConfirming] = useState(false);
  const confirmMounted = useOpenedOnce(confirming);
  useEffect(() => setFavourite(isFavorite), [isFavorite, productInstanceId]);

  if (role !== Role.Buyer) return null;

  const change = (next: boolean) => {
    setFavourite(next);
    toggle.mutate(
      { productInstanceId, favourite: next, item },
      {
        onError: () => setFavourite(!next),
        onSuccess: () => {
          if (!next) onRemoved?.();
        },
      },
    );
  };
  const label = favourite ? 'Aus Favoriten entfernen' : 'Zu Favoriten hinzufügen';

  return (
    <>
      <DeferredTooltip label={label} withArrow>
        <ActionIcon
          variant="subtle"
          color={favourite ? 'yellow' : 'gray'}
          size={size}
          radius="xl"
          aria-label={label}
          aria-pressed={favourite}
          data-testid="favourite-toggle"
          loading={toggle.isPending}
          onClick={(event) => {
            event.preventDefault();
            event.stopPropagation();
            if (favourite && confirmRemove) setConfirming(true);
            else change(!favourite);
          }}
        >
          <StarIcon filled={favourite} size={size === 'lg' ? 22 : 18} />
        </ActionIcon>
      </DeferredTooltip>
      {confirmRemove && confirmMounted && (
        <Suspense fallback={null}>
          <RemoveFavouriteDialog
            opened={confirming}
            onCancel={() => setConfirming(false)}
            onConfirm={() => {
              setConfirming(false);
              change(false);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
