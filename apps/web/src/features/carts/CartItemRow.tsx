import { useEffect, useId, useState } from 'react';
import {
  ActionIcon,
  Anchor,
  Box,
  Fieldset,
  Collapse,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { Link } from 'react-router';
import { limits, messages, timings } from '@shk/contracts';
import { useProjects, type CartItem, type DeliveryAddress, type MultiCart } from '../../api/carts';
import { productUrl } from '../../ui/catalogue/product-url';
import { PriceText } from '../../ui/catalogue/price';
import { UnitText } from '../../ui/catalogue/units';
import { formatCurrency, formatDate, formatQuantity } from '../../ui/format';
import { ChevronDownIcon, TrashIcon } from '../../ui/icons';
import { ProductImage } from '../../ui/product/ProductImage';
import { QuantityCounter } from '../../ui/QuantityCounter';
import { addressOneLine } from '../../ui/address';
import { DeliveryDateInput } from './DeliveryDateInput';
import { ItemAttachments } from './ItemAttachments';
import { ProjectSelect } from './ProjectSelect';
import type { useCartActions } from './use-cart-actions';
import classes from './CartPage.module.css';

interface CartItemRowProps {
  cart: MultiCart;
  item: CartItem;
  addresses: readonly DeliveryAddress[];
  units: Map<string, string>;
  actions: ReturnType<typeof useCartActions>;
  /** The cart may only be looked at (a cXML inspect session): every control is disabled. */
  readOnly?: boolean;
}

/**
 * The folded line's summary of its own details ('Projekt …, Lieferdatum …'), or that the cart's apply: three lines
 * with every field open made a long page, so the fields open on demand.
 */
function detailsSummary(
  item: CartItem,
  projects: readonly { id: number; code: string }[],
  addresses: readonly DeliveryAddress[],
): string {
  const parts: string[] = [];
  if (item.projectId) parts.push(`Projekt ${projects.find((p) => p.id === item.projectId)?.code ?? ''}`.trim());
  if (item.deliveryDate) parts.push(`Lieferdatum ${formatDate(item.deliveryDate)}`);
  const address = addresses.find((a) => a.id === item.deliveryAddressId);
  if (address) parts.push(`Lieferadresse ${address.companyName}`);
  if (item.comment) parts.push(`Notiz: ${item.comment}`);
  if (item.attachments.length)
    parts.push(item.attachments.length === 1 ? '1 Anhang' : `${item.attachments.length} Anhänge`);
  return parts.length ? parts.join(' · ') : 'Keine eigenen Angaben – es gelten die Angaben des Warenkorbs';
}

/**
 * One cart item: picture, name, price, quantity counter, line total and remove; below it a summary of the line's
 * project, delivery date, delivery address, note and attachments, which unfolds to edit them (the note is saved on
 * blur). Changes save themselves.
 */
export function CartItemRow({ cart, item, addresses, units, actions, readOnly = false }: CartItemRowProps) {
  const [note, setNote] = useState(item.comment ?? '');
  useEffect(() => setNote(item.comment ?? ''), [item.comment]);
  const noteError = note.length > limits.cartItemNote ? messages.maxChars(limits.cartItemNote) : null;
  const save = (changes: Parameters<typeof actions.updateItem.mutate>[0]['changes']) =>
    actions.updateItem.mutate({ item, changes });
  const name = item.productName ?? item.articleNumber;
  const productId =
    item.manufacturerId && item.manufacturerPid ? `${item.manufacturerId}~${item.manufacturerPid}` : null;
  const cartAddress = addresses.find((a) => a.id === cart.deliveryAddressId);
  const projects = useProjects();
  const [unfolded, setUnfolded] = useState(false);
  const detailsId = useId();
  const summary = detailsSummary({ ...item, comment: note || null }, projects.data ?? [], addresses);

  return (
    <Paper
      withBorder
      radius="sm"
      p="md"
      className={classes.itemRow}
      data-testid="cart-item"
      data-product-instance-id={item.productInstanceId}
      component="article"
      aria-label={name}
    >
      {/* A disabled fieldset disables every control inside it (quantity, remove, fields, attachments). */}
      <Fieldset variant="unstyled" disabled={readOnly} p={0} data-testid="cart-item-controls">
        <Stack gap="md">
          <div className={classes.itemHead}>
            <ProductImage src={item.imageUrl} alt={name} size={72} />
            <Stack gap={2} className={classes.itemInfo}>
              {productId ? (
                <Anchor
                  component={Link}
                  to={productUrl({ productId, articleNumber: item.productInstanceId })}
                  fw={600}
                  data-testid="item-name"
                >
                  {name}
                </Anchor>
              ) : (
                <Text fw={600} data-testid="item-name">
                  {name}
                </Text>
              )}
              <Text size="sm" c="dimmed">
                {[
                  item.brandName,
                  `Art.-Nr. ${item.articleNumber}`,
                  item.manufacturerPid && `Werksartikelnummer ${item.manufacturerPid}`,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
              <Text size="sm">
                Preis (netto):{' '}
                <PriceText
                  price={{ value: item.unitPrice, basis: item.priceBasis, quantityUnit: item.unit }}
                  units={units}
                />
                {item.minOrderQuantity > 1 && (
                  <Text span size="sm" c="dimmed">
                    {' · Mindestbestellmenge '}
                    {formatQuantity(item.minOrderQuantity)} <UnitText unit={item.unit} units={units} />
                  </Text>
                )}
              </Text>
            </Stack>
            <Group gap="md" wrap="nowrap" align="flex-start" className={classes.itemControls}>
              <QuantityCounter
                value={item.quantity}
                minQuantity={item.minOrderQuantity}
                onChange={(quantity) => save({ quantity })}
                label={`Menge ${name}`}
              />
              <Stack gap={0} align="flex-end" miw={96}>
                <Text fw={700} data-testid="item-total">
                  {formatCurrency(item.netValue)}
                </Text>
                <Text size="xs" c="dimmed">
                  netto
                </Text>
              </Stack>
              <Tooltip label="Artikel entfernen">
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="lg"
                  aria-label={`${name} entfernen`}
                  loading={actions.removeItem.isPending && actions.removeItem.variables?.id === item.id}
                  onClick={() => actions.removeItem.mutate(item)}
                >
                  <TrashIcon size={18} />
                </ActionIcon>
              </Tooltip>
            </Group>
          </div>

          <UnstyledButton
            onClick={() => setUnfolded((open) => !open)}
            aria-expanded={unfolded}
            aria-controls={detailsId}
            className={classes.itemDetailsToggle}
            data-testid="item-details-toggle"
          >
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <ChevronDownIcon
                size={16}
                className={classes.itemDetailsChevron}
                data-opened={unfolded || undefined}
                aria-hidden
              />
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text size="sm" fw={600}>
                  {unfolded ? 'Angaben zur Position ausblenden' : 'Angaben zur Position bearbeiten'}
                </Text>
                <Text size="xs" c="dimmed" data-testid="item-details-summary" className={classes.itemDetailsSummary}>
                  {summary}
                </Text>
              </Stack>
            </Group>
          </UnstyledButton>
          <Collapse expanded={unfolded} transitionDuration={timings.collapseMs} id={detailsId}>
            <Stack gap="md">
              {/* Fields keep their own height (align start); the note spans the whole row, so a multi-line note grows
            downwards without stretching or squeezing the other fields. */}
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" verticalSpacing="sm" className={classes.itemFields}>
                <ProjectSelect
                  value={item.projectId}
                  onChange={(projectId) => save({ projectId })}
                  placeholder={cart.projectId ? 'Wie Warenkorb' : 'Kein Projekt'}
                />
                <DeliveryDateInput
                  label="Lieferdatum"
                  placeholder={
                    cart.deliveryDate ? `Wie Warenkorb (${formatDate(cart.deliveryDate)})` : 'Kein Wunschtermin'
                  }
                  value={item.deliveryDate}
                  onChange={(deliveryDate) => save({ deliveryDate })}
                />
                <Select
                  label="Lieferadresse"
                  placeholder={cartAddress ? `Wie Warenkorb (${cartAddress.companyName})` : 'Wie Warenkorb'}
                  data={addresses.map((a) => ({ value: String(a.id), label: addressOneLine(a) }))}
                  value={item.deliveryAddressId ? String(item.deliveryAddressId) : null}
                  onChange={(value) => save({ deliveryAddressId: value ? Number(value) : null })}
                  clearable
                  comboboxProps={{ withinPortal: true }}
                />
                <Textarea
                  className={classes.itemNote}
                  label="Notiz"
                  placeholder="Notiz für den Lieferanten"
                  autosize
                  minRows={1}
                  maxRows={5}
                  value={note}
                  error={noteError}
                  onChange={(event) => setNote(event.currentTarget.value)}
                  onBlur={() => {
                    if (!noteError) save({ comment: note });
                  }}
                />
              </SimpleGrid>
              <Box maw={520}>
                <ItemAttachments item={item} />
              </Box>
            </Stack>
          </Collapse>
        </Stack>
      </Fieldset>
    </Paper>
  );
}
