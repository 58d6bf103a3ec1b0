import { useEffect, useState } from 'react';
import { Accordion, Button, Fieldset, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { cartMessages, punchoutTexts, round2, timings } from '@shk/contracts';
import { useDeliveryAddresses, type MultiCart, type SupplierGroup } from '../../api/carts';
import { isPunchoutAction, useIdsContext } from '../../api/ids';
import { useUnits } from '../../api/catalogue-queries';
import { addressLines } from '../../ui/address';
import { deliveryCostText } from '../../ui/delivery-cost';
import { formatCurrency } from '../../ui/format';
import { effectiveAddress } from './address-format';
import { trackBeginCheckout } from './cart-analytics';
import { CartItemRow } from './CartItemRow';
import { DeliveryAddressModal } from './DeliveryAddressModal';
import { DeliveryDateInput } from './DeliveryDateInput';
import { OrderSummary } from './OrderSummary';
import { ProjectSelect } from './ProjectSelect';
import { PunchoutReturnButton } from './PunchoutReturnButton';
import type { useCartActions } from './use-cart-actions';
import classes from './CartPage.module.css';

/** The header of a supplier group: supplier, item count, value and delivery cost. */
function GroupHeader({ group }: { group: SupplierGroup }) {
  return (
    <div className={classes.groupHeader}>
      <Text fw={700}>{group.supplierName}</Text>
      <Group gap="md" wrap="wrap">
        <Text size="sm" c="dimmed">
          {cartMessages.articleCount(group.itemCount)}
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

/**
 * The lines of a filled cart (CartPage, loaded on demand): the supplier groups with their items, delivery, project and
 * date of the whole cart, the order summary and, on phones, the order bar.
 */
export function CartLines({
  cart,
  actions,
  readOnly,
}: {
  cart: MultiCart;
  actions: ReturnType<typeof useCartActions>;
  readOnly: boolean;
}) {
  const addresses = useDeliveryAddresses();
  const units = useUnits();
  const ids = useIdsContext();
  const [orderDialog, setOrderDialog] = useState(false);
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
    <>
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
      {!readOnly && <PhoneOrderBar cart={cart} onOrder={() => setOrderDialog(true)} />}
    </>
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
