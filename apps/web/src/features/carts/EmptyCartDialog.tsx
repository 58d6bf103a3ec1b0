import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { timings } from '@shk/contracts';
import type { MultiCart } from '../../api/carts';

/** 'Warenkorb leeren' asks first (CartPage loads it when the button is first pressed). */
export function EmptyCartDialog({
  cart,
  opened,
  onClose,
  emptying,
  onConfirm,
}: {
  cart: MultiCart;
  opened: boolean;
  onClose: () => void;
  emptying: boolean;
  onConfirm: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Warenkorb leeren"
      centered
      transitionProps={{ duration: timings.modalFadeMs }}
    >
      <Stack gap="md">
        <Text>Möchten Sie alle Artikel aus dem Warenkorb „{cart.name}“ entfernen?</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Abbrechen
          </Button>
          <Button color="red.9" loading={emptying} onClick={onConfirm}>
            Warenkorb leeren
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
