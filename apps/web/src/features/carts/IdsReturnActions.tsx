import { useState } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { useAuth } from '../../api/auth';
import { idsMessages } from '@shk/contracts';
import { cartMemory } from '../../api/cart-memory';
import { idsReturnPage, openIdsReturnPage } from '../../api/ids';
import { toast } from '../../ui/toast';

/**
 * In IDS context the cart goes back to the craftsman program (wke, wks): as it is, or ordered first.
 * Afterwards the IDS session ends (spec: success alert, then sign-out) and the browser posts the
 * returned cart to the program's hook URL.
 */
export function IdsReturnActions({ contextId, empty }: { contextId: string; empty: boolean }) {
  const auth = useAuth();
  const [busy, setBusy] = useState<null | 'return' | 'order'>(null);
  const send = async (withCheckout: boolean) => {
    setBusy(withCheckout ? 'order' : 'return');
    try {
      const page = await idsReturnPage(contextId, { withCheckout });
      toast.success(idsMessages.success);
      cartMemory.clear();
      await auth.removeUser();
      openIdsReturnPage(page);
    } catch {
      toast.error(idsMessages.sendFailed);
      setBusy(null);
    }
  };
  return (
    <Alert variant="light" color="blue" mb="lg" data-testid="ids-return">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm">Dieser Warenkorb wird an Ihre Handwerkersoftware zurückgegeben.</Text>
        <Group gap="sm">
          <Button
            variant="default"
            onClick={() => void send(false)}
            loading={busy === 'return'}
            disabled={busy !== null}
            data-testid="ids-complete"
          >
            An Software übergeben
          </Button>
          <Button
            onClick={() => void send(true)}
            loading={busy === 'order'}
            disabled={busy !== null || empty}
            data-testid="ids-complete-order"
          >
            Bestellen und übergeben
          </Button>
        </Group>
      </Group>
    </Alert>
  );
}
