import { Anchor, Badge, Group, Radio, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { messages } from '@shk/contracts';
import type { ProductOffer } from '../../../api/catalogue';
import { isOrderable, needsRelation, orderabilityHint } from '../../../ui/catalogue/orderability';
import { PriceText } from '../../../ui/catalogue/price';
import { UnitText } from '../../../ui/catalogue/units';
import { FieldList } from '../../../ui/FieldList';
import { formatCurrency, formatQuantity } from '../../../ui/format';
import classes from './OfferSelector.module.css';
import { SupplierLogo } from '../../../ui/SupplierLogo';

const deliveryText = (days: number | null) =>
  days === null ? null : days === 1 ? '1 Arbeitstag' : `${days} Arbeitstage`;

/** Price of an offer, or a dash when the supplier's price is not available (connection error). */
function offerPrice(offer: ProductOffer) {
  if (offer.hasConnectionError) return null;
  return {
    value: offer.pricePerPiece,
    basis: offer.priceBasis,
    quantityUnit: offer.unit,
    priceOnDemand: offer.priceOnDemand,
  };
}

interface OfferSelectorProps {
  offers: ProductOffer[];
  selectedId: string;
  onSelect: (productInstanceId: string) => void;
  units: Map<string, string>;
}

/** One selectable card per supplier offer: supplier, price, delivery time, availability. */
export function OfferSelector({ offers, selectedId, onSelect, units }: OfferSelectorProps) {
  return (
    <Radio.Group
      value={selectedId}
      onChange={onSelect}
      label="Angebote"
      description={offers.length > 1 ? `${offers.length} Lieferanten bieten diesen Artikel an` : undefined}
    >
      <Stack gap="xs" mt="xs" data-testid="offer-selector">
        {offers.map((offer) => (
          <Radio.Card
            key={offer.productInstanceId}
            value={offer.productInstanceId}
            className={classes.card}
            radius="md"
            data-testid="offer"
          >
            <Group wrap="nowrap" align="flex-start" gap="sm">
              <Radio.Indicator mt={2} />
              <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Group gap="xs" wrap="nowrap">
                    <SupplierLogo bpNumber={offer.supplierId} name={offer.name} height={20} />
                    <Text fw={600} size="sm">
                      {offer.name}
                    </Text>
                  </Group>
                  {!offer.conditionsHidden && (
                    <Text fw={700} size="sm" data-testid="offer-price">
                      <PriceText price={offerPrice(offer)} units={units} />
                    </Text>
                  )}
                </Group>
                <Group gap="xs" wrap="wrap">
                  <Text size="xs" c="dimmed">
                    Art.-Nr. {offer.pid}
                  </Text>
                  {deliveryText(offer.timeToDelivery) && (
                    <Text size="xs" c="dimmed">
                      · Lieferzeit {deliveryText(offer.timeToDelivery)}
                    </Text>
                  )}
                  {isOrderable(offer) ? (
                    <Badge size="xs" color="green" variant="light" data-testid="offer-orderable">
                      bestellbar
                    </Badge>
                  ) : (
                    <Badge size="xs" color="gray" variant="light" data-testid="offer-not-orderable">
                      nicht bestellbar
                    </Badge>
                  )}
                </Group>
              </Stack>
            </Group>
          </Radio.Card>
        ))}
      </Stack>
    </Radio.Group>
  );
}

const dimensionText = (d: ProductOffer['dimensions']) => {
  const parts = [d.height, d.width, d.length];
  if (parts.every((p) => p === null)) return null;
  return `${parts.map((p) => (p === null ? '–' : formatQuantity(p))).join(' × ')} mm`;
};

/** The chosen offer's fields (spec: color, dimensions, timeToDelivery, factoryArticleNumber, gtin, prices, unit, minQuantity). */
export function OfferFields({ offer, units }: { offer: ProductOffer; units: Map<string, string> }) {
  // A competitor's offer seen by a seller: the API gives no conditions, and the page shows no empty boxes for them.
  const conditions = offer.conditionsHidden ? [] : conditionFields(offer, units);
  return (
    <FieldList
      labelWidth={200}
      fields={[
        ...conditions,
        { label: 'Einheit', value: <UnitText unit={offer.unit} units={units} /> },
        { label: 'Werksartikelnummer', value: offer.factoryArticleNumber },
        { label: 'Lieferanten Artikelnummer', value: offer.pid },
        { label: 'GTIN', value: offer.gtin },
        { label: 'Farbe', value: offer.color },
        { label: 'Abmessungen (H × B × L)', value: dimensionText(offer.dimensions) },
      ]}
    />
  );
}

/** Price, price basis, gross list price, minimum quantity and delivery time of an offer. */
function conditionFields(offer: ProductOffer, units: Map<string, string>) {
  return [
    { label: 'Preis (netto)', value: <PriceText price={offerPrice(offer)} units={units} /> },
    {
      label: 'Preisbasis',
      value: (
        <>
          {formatQuantity(offer.priceBasis || 1)} <UnitText unit={offer.unit} units={units} />
        </>
      ),
    },
    {
      label: 'Bruttolistenpreis',
      value: offer.hasConnectionError
        ? null
        : offer.grossListPrice === null
          ? null
          : formatCurrency(offer.grossListPrice),
    },
    {
      label: 'Mindestbestellmenge',
      value: (
        <>
          {formatQuantity(offer.minOrderQuantity || 1)}{' '}
          <UnitText unit={offer.minOrderQuantityUnit ?? offer.unit} units={units} />
        </>
      ),
    },
    { label: 'Lieferzeit', value: deliveryText(offer.timeToDelivery) },
  ];
}

/** What keeps the chosen offer out of the cart, with the spec's texts. */
export function OfferHints({ offer }: { offer: ProductOffer }) {
  const hint = orderabilityHint(offer);
  return (
    <Stack gap={4}>
      {offer.hasConnectionError && (
        <Text size="sm" c="orange.8" data-testid="price-unavailable">
          {messages.priceUnavailable}
        </Text>
      )}
      {hint && (
        <Text size="sm" c="var(--mantine-color-orange-light-color)" data-testid="orderability-hint">
          {hint}
          {needsRelation(offer.productOrderableStatus) && (
            <>
              {' '}
              <Anchor component={Link} to="/meine-lieferanten" size="sm">
                Geschäftsbeziehung unter Meine Lieferanten anfragen
              </Anchor>
            </>
          )}
        </Text>
      )}
    </Stack>
  );
}
