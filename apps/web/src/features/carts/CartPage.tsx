import { lazy, Suspense, useEffect, useState } from 'react';
import { Alert, Anchor, Badge, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, Navigate, useParams } from 'react-router';
import { cartMessages, punchoutTexts } from '@shk/contracts';
import { cartMemory } from '../../api/cart-memory';
import { useCart, useCurrentCart, type MultiCart, type CartItem } from '../../api/carts';
import { hasStatus } from '../../api/problem';
import { isPunchoutAction, preCartPending, useIdsContext } from '../../api/ids';
import { Page } from '../../ui/Page';
import { useOpenedOnce } from '../../ui/use-opened-once';
import { loadCartLines } from './cart-lines';
import { selectCart, useCartActions } from './use-cart-actions';

/*
 * What an empty cart shows is part of this module; the lines of a filled cart (their fields with the date picker,
 * project and address selects, the attachments' dropzone, the order summary and its dialogs) come with CartLines,
 * which the route's prefetch starts loading as soon as the cart's answer has items (routes.tsx). The confirmation of
 * 'Warenkorb leeren' is loaded when it is asked for.
 */
const CartLines = lazy(() => loadCartLines().then((m) => ({ default: m.CartLines })));
const EmptyCartDialog = lazy(() => import('./EmptyCartDialog').then((m) => ({ default: m.EmptyCartDialog })));
// Only in a procurement system's IDS session (its texts come with the IDS schemas and zod).
const IdsReturnActions = lazy(() => import('./IdsReturnActions').then((m) => ({ default: m.IdsReturnActions })));

const CartLoader = () => (
  <Center py="xl">
    <Loader aria-label="Warenkorb wird geladen" />
  </Center>
);

function UnavailableItems({
  items,
  actions,
  readOnly,
}: {
  items: CartItem[];
  actions: ReturnType<typeof useCartActions>;
  readOnly: boolean;
}) {
  if (items.length === 0) return null;
  return (
    <Alert color="orange" variant="light" title={cartMessages.notOrderable} data-testid="unavailable-items">
      <Stack gap="xs">
        <Text size="sm">{cartMessages.unavailableItems(items.length)}</Text>
        <Text size="sm" c="dimmed">
          {items.map((item) => item.productName ?? item.articleNumber).join(', ')}
        </Text>
        <Group hidden={readOnly}>
          <Button
            size="xs"
            color="orange"
            variant="filled"
            loading={actions.removeUnavailable.isPending}
            onClick={() => actions.removeUnavailable.mutate(items)}
          >
            {cartMessages.removeUnavailable}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

function CartContent({ cart, isCurrent }: { cart: MultiCart; isCurrent: boolean }) {
  const actions = useCartActions(cart.id);
  const [confirmEmpty, setConfirmEmpty] = useState(false);
  const emptyDialogMounted = useOpenedOnce(confirmEmpty);
  const unavailable = cart.items.filter((item) => cart.unavailableItemIds.includes(item.id));
  const ids = useIdsContext();
  // cXML inspect: the procurement system shows the earlier cart only; the API refuses every change.
  const readOnly = Boolean(ids.cart.data?.readOnly);
  const visibleCount = cart.items.length - unavailable.length;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center" wrap="wrap" gap="sm" data-testid="cart-header">
        <Group gap="sm" align="center" wrap="wrap">
          <Title order={2} size="h3" data-testid="cart-name">
            {cart.name}
          </Title>
          {cart.isDefault && <Badge variant="light">Standard</Badge>}
          <Text c="dimmed" data-testid="cart-item-count">
            {cartMessages.articleCount(visibleCount)}
          </Text>
        </Group>
        <Group gap="sm">
          {!isCurrent && (
            <Button variant="light" size="sm" onClick={() => selectCart(cart.id)}>
              Als aktuellen Warenkorb wählen
            </Button>
          )}
          <Button variant="default" size="sm" component={Link} to="/my-carts">
            Meine Warenkörbe
          </Button>
          {!readOnly && (
            <Button
              variant="outline"
              // red.9: red.6 on white has a contrast of 3.3 (WCAG AA needs 4.5).
              color="red.9"
              size="sm"
              disabled={cart.items.length === 0}
              onClick={() => setConfirmEmpty(true)}
            >
              Warenkorb leeren
            </Button>
          )}
        </Group>
      </Group>

      <UnavailableItems items={unavailable} actions={actions} readOnly={readOnly} />

      {visibleCount === 0 ? (
        <Paper withBorder radius="md" p="xl" data-testid="empty-cart">
          <Stack align="center" gap="sm">
            <Text size="lg" fw={600}>
              {cartMessages.emptyCartView}
            </Text>
            <Text c="dimmed" ta="center">
              Suchen Sie Artikel und legen Sie sie mit „In den Warenkorb“ hier ab.
            </Text>
            <Button component={Link} to="/suche">
              Zur Suche
            </Button>
          </Stack>
        </Paper>
      ) : (
        <Suspense fallback={<CartLoader />}>
          <CartLines cart={cart} actions={actions} readOnly={readOnly} />
        </Suspense>
      )}

      {emptyDialogMounted && (
        <Suspense fallback={null}>
          <EmptyCartDialog
            cart={cart}
            opened={confirmEmpty}
            onClose={() => setConfirmEmpty(false)}
            emptying={actions.emptyCart.isPending}
            onConfirm={() => actions.emptyCart.mutate(cart, { onSettled: () => setConfirmEmpty(false) })}
          />
        </Suspense>
      )}
    </Stack>
  );
}

/**
 * /warenkorb/{cartId?} – a cart; without an id the current cart (spec §4: remembered cart, else the
 * default cart; in IDS context always the default cart).
 */
export default function CartPage() {
  const params = useParams();
  const requested = params.cartId && /^\d+$/.test(params.cartId) ? Number(params.cartId) : null;
  const invalidParam = params.cartId !== undefined && requested === null;
  const { carts, current } = useCurrentCart();
  const cartId = requested ?? current?.id ?? null;
  const cart = useCart(invalidParam ? null : cartId);
  const ids = useIdsContext();

  // A remembered cart that no longer exists is forgotten.
  useEffect(() => {
    if (cart.isError && hasStatus(cart.error, 404) && cartId !== null && cartMemory.get() === String(cartId))
      cartMemory.clear();
  }, [cart.isError, cart.error, cartId]);

  // Spec §4: while the program's cart has unmoved, undeleted items, /warenkorb is the pre-cart.
  if (ids.contextId && preCartPending(ids.cart.data)) return <Navigate to="/ids-warenkorb" replace />;

  let content;
  if (invalidParam || (cart.isError && hasStatus(cart.error, 404))) {
    content = (
      <Paper withBorder p="xl" radius="md">
        <Stack align="center" gap="sm">
          <Text fw={600}>{cartMessages.cartNotFound}</Text>
          <Anchor component={Link} to="/my-carts">
            Zu „Meine Warenkörbe“
          </Anchor>
        </Stack>
      </Paper>
    );
  } else if (cart.isError || carts.isError) {
    content = (
      <Alert color="red">Der Warenkorb konnte nicht geladen werden. Bitte versuchen Sie es später erneut.</Alert>
    );
  } else if (!cart.data) {
    content = <CartLoader />;
  } else {
    content = <CartContent key={cart.data.id} cart={cart.data} isCurrent={current?.id === cart.data.id} />;
  }

  return (
    <Page
      title="Warenkorb"
      actions={
        cart.data &&
        !ids.cart.data?.readOnly && (
          <Button component={Link} to={`/schnellerfassung?cartId=${cart.data.id}`} variant="default">
            Schnellerfassung
          </Button>
        )
      }
    >
      {ids.contextId && isPunchoutAction(ids.action) && (
        <Alert
          variant="light"
          color="blue"
          mb="lg"
          data-testid={ids.cart.data?.readOnly ? 'punchout-read-only' : 'punchout-hint'}
        >
          {ids.cart.data?.readOnly ? punchoutTexts.readOnlyHint : punchoutTexts.returnHint}
        </Alert>
      )}
      {ids.contextId && ids.action !== 'as' && ids.action !== 'adl' && !isPunchoutAction(ids.action) && (
        <Suspense fallback={null}>
          <IdsReturnActions contextId={ids.contextId} empty={!cart.data?.items.length} />
        </Suspense>
      )}
      {content}
    </Page>
  );
}
