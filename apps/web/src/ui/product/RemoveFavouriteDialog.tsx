import { Button, Group, Modal, Text } from '@mantine/core';
import { timings } from '@shk/contracts';

/** Asks before a favourite is removed (the favourites page; loaded by FavouriteButton when first needed). */
export function RemoveFavouriteDialog({
  opened,
  onCancel,
  onConfirm,
}: {
  opened: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title="Favorit entfernen"
      centered
      transitionProps={{ duration: timings.modalFadeMs }}
    >
      <Text size="sm">Möchten Sie diesen Artikel aus Ihren Favoriten entfernen?</Text>
      <Group justify="flex-end" mt="lg" gap="sm">
        <Button variant="default" onClick={onCancel}>
          Abbrechen
        </Button>
        <Button color="red" onClick={onConfirm}>
          Entfernen
        </Button>
      </Group>
    </Modal>
  );
}
