import { useEffect, useState } from 'react';
import {
  Accordion,
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Fieldset,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Link, Navigate, useParams } from 'react-router';
import { cartMessages, punchoutTexts, round2, timings } from '@shk/contracts';
import { cartMemory } from '../../api/cart-memory';
import {
  useCart,
  useCurrentCart,
  useDeliveryAddresses,
  type MultiCart,
  type SupplierGroup,
  type CartItem,
} from '../../api/carts';
import { hasStatus } from '../../api/problem';
import { isPunchoutAction, preCartPending, useIdsContext } from '../../api/ids';
import { PunchoutReturnButton } from './PunchoutReturnButton';
import { useUnits } from '../../api/catalogue-queries';
import { formatCurrency } from '../../ui/format';
import { Page } from '../../ui/Page';
import { effectiveAddress } from './address-format';
import { addressLines } from '../../ui/address';
import { CartItemRow } from './CartItemRow';
import { IdsReturnActions } from './IdsReturnActions';
import { DeliveryDateInput } from './DeliveryDateInput';
import { DeliveryAddressModal } from './DeliveryAddressModal';
import { OrderSummary } from './OrderSummary';
import { deliveryCostText } from '../../ui/delivery-cost';
import { ProjectSelect } from './ProjectSelect';
import { selectCart, useCartActions } from './use-cart-actions';
import classes from './CartPage.module.css';
import { trackBeginCheckout } from './cart-analytics';

const articleCount = (n: number) => `${n} Artikel`;

/** The header of a supplier group: supplier, item count, value and delivery cost. */
function GroupHeader({ group }: { group: SupplierGroup }) {
  return (
    <div className={classes.groupHeader}>
      <Text fw={700}>{group.supplierName}</Text>
      <Group gap="md" wrap="wrap">
        <Text size="sm" c="dimmed">
          {articleCount(group.itemCount)}
        </Text>
        <Text size="sm" fw={600} data-testid="group-total">
          {formatCurrency(group.totalValue)}
        </Text>
        <Text size="sm" data-testid="group-delivery">
          {deliveryCostText(group.deliveryCost)}
        </Text>
      </Group>
    </div>
  );
}

/** 'Liefern an' with 'Ändern' (spec §2), project and delivery date for the whole cart. */
function CartDetails({
  cart,
  actions,
  readOnly,
}: {
  cart: MultiCart;
  actions: ReturnType<typeof useCartActions>;
  readOnly: boolean;
}) {
  const addresses = useDeliveryAddresses();
  const [modalOpen, setModalOpen] = useState(false);
  const address = effectiveAddress(addresses.data, cart.deliveryAddressId);
  return (
    <>
      <Paper
        withBorder
        radius="md"
        p="md"
        component="section"
        aria-labelledby="deliver-to-title"
        data-testid="deliver-to"
      >
        <Group justify="space-between" align="center" mb="xs">
          <Title order={2} size="h4" id="deliver-to-title">
            Liefern an
          </Title>
          {!readOnly && (
            <Button variant="subtle" size="compact-sm" onClick={() => setModalOpen(true)}>
              Ändern
            </Button>
          )}
        </Group>
        {address ? (
          <Stack gap={0}>
            {addressLines(address).map((line, index) => (
              <Text key={line} size="sm" fw={index === 0 ? 600 : 400}>
                {line}
              </Text>
            ))}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {addresses.isPending ? 'Wird geladen …' : 'Keine Lieferadresse gewählt'}
          </Text>
        )}
      </Paper>
      <Paper withBorder radius="md" p="md" component="section" aria-labelledby="cart-details-title">
        <Fieldset variant="unstyled" disabled={readOnly} p={0}>
          <Stack gap="sm">
            <Title order={2} size="h4" id="cart-details-title">
              Projekt und Lieferdatum
            </Title>
            <Text size="xs" c="dimmed">
              Gilt für alle Artikel ohne eigene Angabe.
            </Text>
            <ProjectSelect
              value={cart.projectId}
              onChange={(projectId) => actions.updateDetails.mutate({ cart, changes: { projectId } })}
              label="Projekt (Warenkorb)"
            />
            <DeliveryDateInput
              label="Lieferdatum (Warenkorb)"
              value={cart.deliveryDate}
              onChange={(deliveryDate) => actions.updateDetails.mutate({ cart, changes: { deliveryDate } })}
            />
          </Stack>
        </Fieldset>
      </Paper>
      <DeliveryAddressModal
        opened={modalOpen}
        onClose={() => setModalOpen(false)}
        selectedId={address?.id ?? null}
        onSelect={(deliveryAddressId) => actions.updateDetails.mutate({ cart, changes: { deliveryAddressId } })}
      />
    </>
  );
}

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
  const addresses = useDeliveryAddresses();
  const units = useUnits();
  const [confirmEmpty, setConfirmEmpty] = useState(false);
  const [orderDialog, setOrderDialog] = useState(false);
  const unavailable = cart.items.filter((item) => cart.unavailableItemIds.includes(item.id));
  const ids = useIdsContext();
  // cXML inspect: the procurement system shows the earlier cart only; the API refuses every change.
  const readOnly = Boolean(ids.cart.data?.readOnly);
  const visibleCount = cart.items.length - unavailable.length;
  const [openGroups, setOpenGroups] = useState<string[]>(() =>
    cart.supplierGroups.map((g) => g.supplierBusinessPartnerNo),
  );
  // Groups that appear later (an item of a new supplier) start open as well.
  useEffect(() => {
    setOpenGroups((open) => [
      ...open,
      ...cart.supplierGroups.map((g) => g.supplierBusinessPartnerNo).filter((bp) => !open.includes(bp)),
    ]);
  }, [cart.supplierGroups]);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center" wrap="wrap" gap="sm" data-testid="cart-header">
        <Group gap="sm" align="center" wrap="wrap">
          <Title order={2} size="h3" data-testid="cart-name">
            {cart.name}
          </Title>
          {cart.isDefault && <Badge variant="light">Standard</Badge>}
          <Text c="dimmed" data-testid="cart-item-count">
            {articleCount(visibleCount)}
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
        <div className={classes.layout}>
          <Accordion
            multiple
            value={openGroups}
            onChange={setOpenGroups}
            variant="separated"
            radius="md"
            transitionDuration={timings.collapseMs}
            chevronPosition="left"
          >
            {cart.supplierGroups.map((group) => (
              <Accordion.Item
                key={group.supplierBusinessPartnerNo}
                value={group.supplierBusinessPartnerNo}
                data-testid="supplier-group"
                data-supplier={group.supplierBusinessPartnerNo}
              >
                {/* Named by its visible content (supplier, article count, total, delivery): a shorter aria-label would
                    not contain the visible text (axe: label-content-name-mismatch). */}
                <Accordion.Control>
                  <GroupHeader group={group} />
                </Accordion.Control>
                <Accordion.Panel>
                  <Stack gap="sm">
                    {group.deliveryCost > 0 && group.missingForFreeDelivery > 0 && (
                      <Text size="sm" c="blue.8" data-testid="free-delivery-hint">
                        {cartMessages.missingForFreeDelivery(formatCurrency(group.missingForFreeDelivery))}
                      </Text>
                    )}
                    {cart.items
                      .filter(
                        (item) =>
                          item.supplierBusinessPartnerNo === group.supplierBusinessPartnerNo &&
                          !cart.unavailableItemIds.includes(item.id),
                      )
                      .map((item) => (
                        <CartItemRow
                          key={item.id}
                          cart={cart}
                          item={item}
                          addresses={addresses.data ?? []}
                          units={units}
                          actions={actions}
                          readOnly={readOnly}
                        />
                      ))}
                  </Stack>
                </Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
          <aside className={classes.aside} aria-label="Lieferung und Bestellung">
            <CartDetails cart={cart} actions={actions} readOnly={readOnly} />
            <OrderSummary
              cart={cart}
              orderAction={
                readOnly ? (
                  <Text size="sm" c="dimmed" data-testid="punchout-read-only-summary">
                    {punchoutTexts.readOnlyHint}
                  </Text>
                ) : isPunchoutAction(ids.action) ? (
                  <PunchoutReturnButton empty={!cart.items.length} />
                ) : undefined
              }
              opened={orderDialog}
              onOpen={() => setOrderDialog(true)}
              onClose={() => setOrderDialog(false)}
            />
          </aside>
        </div>
      )}

      {visibleCount > 0 && !readOnly && <PhoneOrderBar cart={cart} onOrder={() => setOrderDialog(true)} />}

      <Modal
        opened={confirmEmpty}
        onClose={() => setConfirmEmpty(false)}
        title="Warenkorb leeren"
        centered
        transitionProps={{ duration: timings.modalFadeMs }}
      >
        <Stack gap="md">
          <Text>Möchten Sie alle Artikel aus dem Warenkorb „{cart.name}“ entfernen?</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirmEmpty(false)}>
              Abbrechen
            </Button>
            <Button
              color="red.9"
              loading={actions.emptyCart.isPending}
              onClick={() => actions.emptyCart.mutate(cart, { onSettled: () => setConfirmEmpty(false) })}
            >
              Warenkorb leeren
            </Button>
          </Group>
        </Stack>
      </Modal>
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
    content = (
      <Center py="xl">
        <Loader aria-label="Warenkorb wird geladen" />
      </Center>
    );
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
        <IdsReturnActions contextId={ids.contextId} empty={!cart.data?.items.length} />
      )}
      {content}
    </Page>
  );
}

/**
 * Phones: the order summary comes after every item, often screens down. This bar with the total and 'Bestellen'
 * stays at the bottom of the screen (CSS shows it below 48em only) and opens the same order dialog.
 */
function PhoneOrderBar({ cart, onOrder }: { cart: MultiCart; onOrder: () => void }) {
  const orderable = cart.supplierGroups.reduce((n, g) => n + g.itemCount, 0);
  return (
    <div className={classes.orderBar} data-testid="order-bar">
      <div>
        <Text size="xs" c="dimmed">
          Gesamtsumme (netto)
        </Text>
        <Text fw={700}>{formatCurrency(round2(cart.totalNetValue + cart.totalDeliveryCost))}</Text>
      </div>
      <Button
        disabled={orderable === 0}
        onClick={() => {
          trackBeginCheckout(cart);
          onOrder();
        }}
      >
        Bestellen
      </Button>
    </div>
  );
}
