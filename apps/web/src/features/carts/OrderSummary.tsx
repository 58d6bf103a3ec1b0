import { useState, type ReactNode } from 'react';
import { Button, Divider, Group, Modal, Paper, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { cartMessages, limits, messages, round2, timings } from '@shk/contracts';
import { cartsApi, invalidateCarts, type MultiCart } from '../../api/carts';
import { deliveryCostText } from '../../ui/delivery-cost';
import { formatCurrency } from '../../ui/format';
import { toast } from '../../ui/toast';
import { trackBeginCheckout, trackPurchase } from './cart-analytics';
import { cancelChangesSaved } from './use-cart-actions';
import classes from './CartPage.module.css';

const orderDetailUrl = (customerOrderNumber: string) =>
  `/bestellungen/bestellung?${new URLSearchParams({ id: customerOrderNumber, orderType: 'customer', danke: 'true' }).toString()}`;

/**
 * Order summary panel (spec §2): article prices, delivery cost per supplier and in total, the total; the
 * order button opens the confirmation dialog, which only its buttons close.
 */
export function OrderSummary({
  cart,
  opened,
  onOpen,
  onClose,
  orderAction,
}: {
  cart: MultiCart;
  opened: boolean;
  onOpen: () => void;
  onClose: () => void;
  /** Replaces 'Bestellen' (a punchout session returns the cart to the requisition instead). */
  orderAction?: ReactNode;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const orderable = cart.supplierGroups.reduce((n, g) => n + g.itemCount, 0);
  const total = round2(cart.totalNetValue + cart.totalDeliveryCost);

  // The whole order's reference and note: asked in the order dialog, sent with the checkout.
  const [orderReference, setOrderReference] = useState('');
  const [orderNote, setOrderNote] = useState('');
  const checkout = useMutation({
    mutationFn: () => cartsApi.checkout(cart.id, { orderReference, orderNote }),
    onSuccess: async ({ customerOrderNumber }) => {
      trackPurchase(cart, customerOrderNumber);
      // One message after ordering: earlier toasts ('Änderungen erfasst', 'Artikel hinzugefügt') would cover the
      // thank-you on the order page.
      cancelChangesSaved();
      toast.dismissAll();
      toast.success(cartMessages.orderSuccess);
      // Carts are reset and every read that shows them or the orders refreshed.
      await Promise.all([
        invalidateCarts(queryClient),
        queryClient.invalidateQueries({
          predicate: (query) => query.queryKey[0] === 'bp' && query.queryKey[2] === 'orders',
        }),
      ]);
      onClose();
      navigate(orderDetailUrl(customerOrderNumber));
    },
    onError: () => toast.error(messages.genericRetry),
  });

  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="section"
      aria-labelledby="order-summary-title"
      data-testid="order-summary"
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id="order-summary-title">
          Bestellübersicht
        </Title>
        <div className={classes.summaryRow}>
          <Text>Artikelpreise</Text>
          <Text fw={600} data-testid="summary-net">
            {formatCurrency(cart.totalNetValue)}
          </Text>
        </div>
        {cart.supplierGroups.length > 1 &&
          cart.supplierGroups.map((group) => (
            <div key={group.supplierBusinessPartnerNo} className={classes.summaryRow}>
              <Text size="sm" c="dimmed" style={{ minWidth: 0 }}>
                {group.supplierName}
              </Text>
              <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {deliveryCostText(group.deliveryCost)}
              </Text>
            </div>
          ))}
        <Text fw={600} ta="right" data-testid="summary-delivery">
          {deliveryCostText(cart.totalDeliveryCost)}
        </Text>
        <Divider />
        <div className={classes.summaryRow}>
          <Text fw={700}>Gesamtsumme (netto)</Text>
          <Text fw={700} size="lg" data-testid="summary-total">
            {formatCurrency(total)}
          </Text>
        </div>
        <Text size="xs" c="dimmed">
          Alle Preise zzgl. gesetzlicher MwSt. Bestellwert und Lieferkosten werden vom Lieferanten geprüft und in der
          Auftragsbestätigung festgelegt.
        </Text>
        {orderAction ?? (
          <Button
            size="md"
            fullWidth
            disabled={orderable === 0}
            onClick={() => {
              trackBeginCheckout(cart);
              onOpen();
            }}
          >
            Bestellen
          </Button>
        )}
      </Stack>

      <Modal
        opened={opened}
        onClose={() => {}}
        closeOnClickOutside={false}
        closeOnEscape={false}
        withCloseButton={false}
        title={cartMessages.orderDialogTitle}
        centered
        size="lg"
        transitionProps={{ duration: timings.modalFadeMs }}
      >
        <Stack gap="md">
          <Paper withBorder p="sm" radius="sm" bg="gray.0">
            <Stack gap={4}>
              {cart.supplierGroups.map((group) => (
                <div key={group.supplierBusinessPartnerNo} className={classes.summaryRow}>
                  <Text size="sm">
                    {group.supplierName} · {group.itemCount} Artikel
                  </Text>
                  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {formatCurrency(group.totalValue)}
                  </Text>
                </div>
              ))}
              <Text size="sm" ta="right">
                {deliveryCostText(cart.totalDeliveryCost)}
              </Text>
              <div className={classes.summaryRow}>
                <Text fw={700}>Gesamtsumme (netto)</Text>
                <Text fw={700}>{formatCurrency(total)}</Text>
              </div>
            </Stack>
          </Paper>
          <TextInput
            label={cartMessages.orderReferenceLabel}
            value={orderReference}
            onChange={(event) => setOrderReference(event.currentTarget.value)}
            maxLength={limits.orderReference}
            description={`Höchstens ${limits.orderReference} Zeichen; erscheint in der Bestellung beim Lieferanten.`}
            data-testid="order-reference"
          />
          <Textarea
            label={cartMessages.orderNoteLabel}
            value={orderNote}
            onChange={(event) => setOrderNote(event.currentTarget.value)}
            maxLength={limits.orderNote}
            autosize
            minRows={2}
            maxRows={5}
            data-testid="order-note"
          />
          {cartMessages.orderDialogText.map((paragraph) => (
            <Text key={paragraph} size="sm">
              {paragraph}
            </Text>
          ))}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={checkout.isPending}>
              Abbrechen
            </Button>
            <Button onClick={() => checkout.mutate()} loading={checkout.isPending} disabled={checkout.isPending}>
              {cartMessages.acceptAndOrder}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
