import { useState } from 'react';
import { Alert, Button, Group, List, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { cartMessages, limits, messages, timings } from '@shk/contracts';
import { cartMemory } from '../../api/cart-memory';
import { invalidateCarts, useCarts } from '../../api/carts';
import { ordersApi } from '../../api/orders';
import { problemTitle } from '../../api/problem';
import { toast } from '../../ui/toast';

type Result = Awaited<ReturnType<typeof ordersApi.reorder>>;
const NEW_CART = 'new';

/**
 * 'Erneut bestellen': the buyer picks one of the partner's carts or names a new one; the server puts the order's
 * lines that can still be ordered into it and names the others, which the dialog then lists.
 */
export function ReorderButton({ customerOrderNumber }: { customerOrderNumber: string }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="light" onClick={() => setOpened(true)} data-testid="reorder">
        {cartMessages.reorder}
      </Button>
      {opened && <ReorderDialog customerOrderNumber={customerOrderNumber} onClose={() => setOpened(false)} />}
    </>
  );
}

function ReorderDialog({ customerOrderNumber, onClose }: { customerOrderNumber: string; onClose: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const carts = useCarts();
  const [target, setTarget] = useState<string | null>(null);
  const [newCartName, setNewCartName] = useState('');
  const [result, setResult] = useState<Result | null>(null);
  const chosen = target ?? (carts.data?.find((c) => c.isDefault)?.id.toString() || NEW_CART);
  const reorder = useMutation({
    mutationFn: () =>
      ordersApi.reorder(
        customerOrderNumber,
        chosen === NEW_CART ? { newCartName: newCartName.trim() } : { cartId: Number(chosen) },
      ),
    onSuccess: async (data) => {
      setResult(data);
      if (data.cartId !== null) {
        toast.success(cartMessages.reorderAdded(data.added.length));
        await invalidateCarts(queryClient);
      }
    },
    onError: (error) => toast.error(problemTitle(error, messages.genericRetry)),
  });
  const openCart = () => {
    if (result?.cartId == null) return;
    cartMemory.set(String(result.cartId));
    navigate(`/warenkorb/${result.cartId}`);
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={cartMessages.reorderTitle}
      centered
      transitionProps={{ duration: timings.modalFadeMs }}
    >
      {result ? (
        <Stack gap="sm" data-testid="reorder-result">
          {result.cartId !== null ? (
            <Text>
              {cartMessages.reorderAdded(result.added.length)} ({result.cartName})
            </Text>
          ) : (
            <Alert color="orange">{cartMessages.reorderNothingAdded}</Alert>
          )}
          {result.unavailable.length > 0 && (
            <Alert color="orange" title={cartMessages.reorderUnavailableTitle} data-testid="reorder-unavailable">
              <Text size="sm">{cartMessages.reorderUnavailable(result.unavailable.length)}</Text>
              <List size="sm" mt={4}>
                {result.unavailable.map((line) => (
                  <List.Item key={`${line.supplierName}-${line.articleNumber}`}>
                    {line.name} (Art.-Nr. {line.articleNumber}, {line.supplierName}): {line.reason}
                  </List.Item>
                ))}
              </List>
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Schließen
            </Button>
            {result.cartId !== null && <Button onClick={openCart}>{cartMessages.reorderToCart}</Button>}
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Radio.Group label={cartMessages.reorderTargetLabel} value={chosen} onChange={setTarget}>
            <Stack gap={6} mt={6}>
              {(carts.data ?? []).map((cart) => (
                <Radio key={cart.id} value={String(cart.id)} label={cart.name} />
              ))}
              <Radio value={NEW_CART} label={cartMessages.reorderNewCart} />
            </Stack>
          </Radio.Group>
          {chosen === NEW_CART && (
            <TextInput
              label={cartMessages.reorderNewCartName}
              value={newCartName}
              onChange={(event) => setNewCartName(event.currentTarget.value)}
              maxLength={limits.cartName}
              required
            />
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={reorder.isPending}>
              Abbrechen
            </Button>
            <Button
              onClick={() => reorder.mutate()}
              loading={reorder.isPending}
              disabled={chosen === NEW_CART && !newCartName.trim()}
            >
              {cartMessages.reorderSubmit}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
