import { useEffect, useState } from 'react';
import { ActionIcon, Button, Group, Modal, Text, Tooltip } from '@mantine/core';
import { Role, timings } from '@shk/contracts';
import { useListedUserProfile } from '../../api/session';
import type { AnalyticsItem } from '../analytics';
import { useFavouriteToggle } from '../../api/use-favourite';
import { StarIcon } from '../icons';

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
      <Tooltip label={label} withArrow>
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
      </Tooltip>
      {confirmRemove && (
        <Modal
          opened={confirming}
          onClose={() => setConfirming(false)}
          title="Favorit entfernen"
          centered
          transitionProps={{ duration: timings.modalFadeMs }}
        >
          <Text size="sm">Möchten Sie diesen Artikel aus Ihren Favoriten entfernen?</Text>
          <Group justify="flex-end" mt="lg" gap="sm">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Abbrechen
            </Button>
            <Button
              color="red"
              onClick={() => {
                setConfirming(false);
                change(false);
              }}
            >
              Entfernen
            </Button>
          </Group>
        </Modal>
      )}
    </>
  );
}
