import type { ReactNode } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  CopyButton,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { cartMessages, isStaff, Role, round2, timings } from '@shk/contracts';
import { downloadApiFile } from '../../api/download';
import {
  orderKeys,
  orderLineAttachmentPath,
  orderPdfPath,
  ordersApi,
  type CustomerOrderDetails,
  type OrderLine,
  type OrderType,
  type SupplierOrderDetails,
} from '../../api/orders';
import { hasStatus } from '../../api/problem';
import { supplierOrderDocumentPath, useSellerSupplierOrder } from '../../api/supplier-orders';
import { usePartnerQuery, useUserProfile } from '../../api/session';
import { PriceText } from '../../ui/catalogue/price';
import { UnitText, useUnits } from '../../ui/catalogue/units';
import { addressLines, cityLine } from '../../ui/address';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { FieldList } from '../../ui/FieldList';
import { formatCurrency, formatDate, formatDateTime, formatQuantity } from '../../ui/format';
import { Page } from '../../ui/Page';
import { toast } from '../../ui/toast';
import {
  customerStatusLabel,
  deliveryCostAmountText,
  deliveryCostText,
  statusColor,
  supplierStatusLabel,
  wrappingBadgeStyles,
} from './order-format';
import { SupplierOrderActions } from './SupplierOrderActions';
import { TransmissionLog } from './TransmissionLog';
import { ReorderButton } from './ReorderDialog';

const confirmationLabels: Record<string, string> = {
  confirmed: 'Bestätigt',
  added: 'Hinzugefügt',
  changed: 'Geändert',
  replaced: 'Ersetzt',
  removed: 'Entfernt',
};

/**
 * The supplier's answer for a line (spec: added or confirmed as success; changed, replaced or removed as
 * error with old and new values).
 */
function LineConfirmationText({ line }: { line: OrderLine }) {
  const c = line.confirmation;
  if (!c) return null;
  const success = c.kind === 'confirmed' || c.kind === 'added';
  // The line shows the confirmed values; this names what was ordered ('bestellt') and what changed.
  const o = line.ordered;
  const changes: string[] = [];
  if (c.kind === 'removed') changes.push(`bestellt ${formatQuantity(o.quantity)}, nicht geliefert`);
  if (c.kind === 'changed' || c.kind === 'replaced') {
    if (o.quantity !== line.quantity)
      changes.push(`Menge bestellt ${formatQuantity(o.quantity)} → ${formatQuantity(line.quantity)}`);
    if (o.unitPrice !== line.unitPrice)
      changes.push(`Preis bestellt ${formatCurrency(o.unitPrice)} → ${formatCurrency(line.unitPrice)}`);
    if (o.deliveryDate !== line.deliveryDate)
      changes.push(
        `Lieferdatum bestellt ${o.deliveryDate ? formatDate(o.deliveryDate) : '–'} → ${line.deliveryDate ? formatDate(line.deliveryDate) : '–'}`,
      );
    if (c.kind === 'replaced') changes.push(`bestellt Artikel ${o.articleNumber} ${o.name}`);
  }
  return (
    <Text size="xs" c={success ? 'green.8' : 'red.8'} fw={600} data-testid="line-confirmation" data-kind={c.kind}>
      {[confirmationLabels[c.kind], ...changes].join(' · ')}
    </Text>
  );
}

/** An ordered value beside the confirmed one ('bestellt 3 Stk'). */
function OrderedValue({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Text size="xs" c="dimmed" data-testid={testId}>
      {children}
    </Text>
  );
}

function LineDetails({ line, supplierOrderNumber }: { line: OrderLine; supplierOrderNumber: string }) {
  const details: [string, ReactNode][] = [];
  if (line.projectCode) details.push(['Projekt', line.projectCode]);
  if (line.deliveryDate) details.push(['Lieferdatum', formatDate(line.deliveryDate)]);
  if (line.deliveryAddress) details.push(['Lieferadresse', addressLines(line.deliveryAddress).join(', ')]);
  if (line.comment) details.push(['Notiz', line.comment]);
  if (line.attachments.length) {
    details.push([
      'Anhänge',
      <Group gap="xs" component="span">
        {line.attachments.map((a) => (
          <Anchor
            key={a.id}
            component="button"
            type="button"
            size="sm"
            onClick={() =>
              void downloadApiFile(orderLineAttachmentPath(supplierOrderNumber, line.lineId, a.id), a.fileName).catch(
                () => toast.error('Der Anhang konnte nicht geladen werden.'),
              )
            }
          >
            {a.fileName}
          </Anchor>
        ))}
      </Group>,
    ]);
  }
  if (!details.length) return null;
  return (
    <Stack gap={0} mt={4}>
      {details.map(([label, value]) => (
        <Text key={label} size="xs" c="dimmed" component="div">
          <Text span size="xs" fw={600} c="dark.3">
            {label}:{' '}
          </Text>
          {value}
        </Text>
      ))}
    </Stack>
  );
}

/**
 * Who ordered, where it goes and when it moved (spec section 3: contact, deliveryAddress, externalOrderId,
 * sent and confirmed times): the seller and staff need it on the supplier-order detail.
 */
function SupplierOrderParties({ order }: { order: SupplierOrderDetails }) {
  const c = order.contact;
  const d = order.deliveryAddress;
  const lines = (values: (string | null | undefined)[]) => {
    const present = values.filter(Boolean);
    return present.length ? (
      <Stack gap={0}>
        {present.map((v, i) => (
          <span key={i}>{v}</span>
        ))}
      </Stack>
    ) : null;
  };
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" data-testid="supplier-order-parties">
      <FieldList
        fields={[
          {
            label: 'Besteller',
            value: lines([
              c.name,
              c.lineOne,
              cityLine(c),
              c.countryCode && c.countryCode !== 'DE' ? c.countryCode : null,
            ]),
          },
          { label: 'Telefon', value: c.phoneNo },
          { label: 'E-Mail', value: c.emailAddress },
          { label: 'USt-IdNr. / Steuernummer', value: c.taxIdentificationNo },
          { label: 'Kundennummer beim Lieferanten', value: order.supplierCustomerId },
        ]}
      />
      <FieldList
        fields={[
          {
            label: 'Lieferadresse',
            value: d
              ? lines([d.name, d.lineOne, d.lineTwo, d.lineThree, cityLine(d), d.countryCode])
              : 'Anschrift des Bestellers',
          },
          { label: 'Bestelldatum', value: formatDateTime(order.orderPlaced) },
          { label: 'Gesendet am', value: order.sentAt ? formatDateTime(order.sentAt) : null },
          { label: 'Bestätigt am', value: order.confirmedAt ? formatDateTime(order.confirmedAt) : null },
          { label: 'Externe Bestellnummer', value: order.externalOrderId },
        ]}
      />
    </SimpleGrid>
  );
}

/** The buyer's reference and note for the whole order, where the seller and staff read a supplier order. */
function OrderTexts({ order }: { order: { orderReference: string | null; orderNote: string | null } }) {
  return (
    <FieldList
      fields={[
        {
          label: cartMessages.orderReferenceLabel,
          value: <span data-testid="order-reference">{order.orderReference}</span>,
        },
        { label: cartMessages.orderNoteLabel, value: <span data-testid="order-note">{order.orderNote}</span> },
      ]}
    />
  );
}

/** One supplier order: supplier, number, status, its lines and the delivery cost ('zzgl.' / '0,00 € Lieferkosten'). */
function SupplierOrderCard({
  order,
  units,
  documents = true,
  parties = false,
  customerOrderNumber,
}: {
  order: SupplierOrderDetails;
  /** On the customer order: the buyer's printable order (the supplier's PDF) of this supplier order. */
  customerOrderNumber?: string;
  units: Map<string, string>;
  /** Read-only document links; the seller manages documents in SupplierOrderActions instead. */
  documents?: boolean;
  /** Buyer contact, delivery address, external order id and times (supplier-order detail of seller and staff). */
  parties?: boolean;
}) {
  const columns: DataTableColumn<OrderLine>[] = [
    { key: 'pos', header: 'Pos.', render: (l) => l.lineNo },
    {
      key: 'article',
      header: 'Artikel',
      render: (l) => (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {l.name}
          </Text>
          <Text size="xs" c="dimmed">
            {[
              `Art.-Nr. ${l.articleNumber}`,
              l.manufacturerName,
              l.producerNumber && `Werksartikelnummer ${l.producerNumber}`,
            ]
              .filter(Boolean)
              .join(' · ')}
          </Text>
          <LineDetails line={l} supplierOrderNumber={order.supplierOrderNumber} />
          <LineConfirmationText line={l} />
        </Stack>
      ),
    },
    {
      key: 'qty',
      header: 'Menge',
      nowrap: true,
      render: (l) => (
        <Stack gap={0}>
          <span data-testid="line-quantity">
            {formatQuantity(l.quantity)} <UnitText unit={l.unitCode} units={units} />
          </span>
          {l.confirmation && l.ordered.quantity !== l.quantity && (
            <OrderedValue testId="line-ordered-quantity">
              bestellt {formatQuantity(l.ordered.quantity)} <UnitText unit={l.unitCode} units={units} />
            </OrderedValue>
          )}
        </Stack>
      ),
    },
    {
      key: 'price',
      header: 'Einzelpreis',
      nowrap: true,
      render: (l) => (
        <Stack gap={0}>
          <PriceText
            price={{
              value: l.unitPrice,
              basis: l.priceBasis,
              quantityUnit: l.unitCode,
              priceOnDemand: l.priceOnRequest,
            }}
            units={units}
          />
          {l.confirmation && l.ordered.unitPrice !== l.unitPrice && (
            <OrderedValue>bestellt {formatCurrency(l.ordered.unitPrice)}</OrderedValue>
          )}
        </Stack>
      ),
    },
    {
      key: 'total',
      header: 'Gesamtpreis',
      nowrap: true,
      render: (l) => (
        <Stack gap={0}>
          <span data-testid="line-total">{formatCurrency(l.quantityPrice)}</span>
          {l.confirmation && l.ordered.quantityPrice !== l.quantityPrice && (
            <OrderedValue testId="line-ordered-total">bestellt {formatCurrency(l.ordered.quantityPrice)}</OrderedValue>
          )}
        </Stack>
      ),
    },
  ];
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="section"
      data-testid="supplier-order"
      aria-label={`Bestellung bei ${order.supplierName}`}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="sm" wrap="wrap">
            <Title order={2} size="h4">
              {order.supplierName}
            </Title>
            <Text size="sm" c="dimmed">
              Lieferantenbestellung {order.supplierOrderNumber}
            </Text>
          </Group>
          <Badge variant="light" color={statusColor(order.supplierOrderStatusId, 'supplier')}>
            {supplierStatusLabel(order.supplierOrderStatusId)}
          </Badge>
        </Group>
        {parties && <SupplierOrderParties order={order} />}
        {parties && (order.orderReference || order.orderNote) && <OrderTexts order={order} />}
        <DataTable
          label={`Positionen ${order.supplierName}`}
          columns={columns}
          rows={order.lines}
          rowKey={(l) => l.lineId}
          pageSize={0}
          minWidth={640}
        />
        <Stack gap={2} align="flex-end">
          <Text size="sm">
            {order.confirmedTotal === null ? 'Warenwert (netto)' : 'Warenwert laut Bestätigung (netto)'}:{' '}
            <Text span fw={600} data-testid="supplier-order-total">
              {formatCurrency(order.total)}
            </Text>
          </Text>
          {order.confirmedTotal !== null && order.confirmedTotal !== order.orderedTotal && (
            <Text size="sm" c="dimmed" data-testid="supplier-order-ordered-total">
              bestellt: {formatCurrency(order.orderedTotal)}
            </Text>
          )}
          <Text size="sm" data-testid="supplier-order-delivery">
            {deliveryCostText(order.deliveryCost)}
          </Text>
          {customerOrderNumber && (
            <Button
              variant="subtle"
              size="compact-sm"
              data-testid="order-pdf"
              onClick={() =>
                void downloadApiFile(
                  orderPdfPath(customerOrderNumber, order.supplierOrderNumber),
                  `Bestellung_${order.supplierOrderNumber}.pdf`,
                ).catch(() => toast.error('Das Dokument konnte nicht geladen werden.'))
              }
            >
              {cartMessages.orderPdf}
            </Button>
          )}
          {documents && order.attachments.length > 0 && (
            <Group gap="xs" data-testid="order-documents">
              <Text size="sm">Dokumente:</Text>
              {order.attachments.map((d) => (
                <Anchor
                  key={d.id}
                  component="button"
                  type="button"
                  size="sm"
                  onClick={() =>
                    void downloadApiFile(supplierOrderDocumentPath(order.supplierOrderNumber, d.id), d.fileName).catch(
                      () => toast.error('Das Dokument konnte nicht geladen werden.'),
                    )
                  }
                >
                  {d.fileName}
                </Anchor>
              ))}
            </Group>
          )}
        </Stack>
      </Stack>
    </Paper>
  );
}

/** Copies the order number (for a mail or the buyer's own system); the button confirms it for 1.5 s (spec). */
function OrderNumberCopy({ value }: { value: string }) {
  return (
    <CopyButton value={value} timeout={timings.copyConfirmationMs}>
      {({ copied, copy }) => (
        <Button
          variant="subtle"
          size="compact-xs"
          color={copied ? 'teal' : 'gray'}
          onClick={copy}
          data-testid="copy-order-number"
        >
          {copied ? 'Kopiert' : 'Kopieren'}
        </Button>
      )}
    </CopyButton>
  );
}

function CustomerOrderView({
  order,
  thankYou,
  units,
  canReorder,
}: {
  order: CustomerOrderDetails;
  thankYou: boolean;
  units: Map<string, string>;
  /** Buyers outside an IDS session may put the order's lines into a cart again. */
  canReorder: boolean;
}) {
  const total = round2(order.orderTotal + order.deliveryCostTotal);
  return (
    <Stack gap="lg">
      {thankYou && (
        <Alert color="green" variant="light" title={cartMessages.thankYouTitle} data-testid="thank-you">
          {cartMessages.thankYouText(order.customerOrderNumber)}
        </Alert>
      )}
      {canReorder && (
        <Group justify="flex-end">
          <ReorderButton customerOrderNumber={order.customerOrderNumber} />
        </Group>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Paper withBorder radius="md" p="md">
          <FieldList
            fields={[
              {
                label: 'Bestellnummer',
                value: (
                  <Group gap="xs" wrap="wrap">
                    <span data-testid="order-number">{order.customerOrderNumber}</span>
                    <OrderNumberCopy value={order.customerOrderNumber} />
                  </Group>
                ),
              },
              { label: 'Bestelldatum', value: formatDateTime(order.orderPlaced) },
              {
                label: 'Auftragsstatus',
                value: (
                  <Badge
                    variant="light"
                    styles={wrappingBadgeStyles}
                    color={statusColor(order.customerOrderStatus, 'customer')}
                  >
                    {customerStatusLabel(order.customerOrderStatus)}
                  </Badge>
                ),
              },
              { label: 'Lieferung an', value: order.dispatchTo },
              { label: 'Besteller', value: addressLines(order.customerAddress).join(', ') },
              {
                label: cartMessages.orderReferenceLabel,
                value: order.orderReference && <span data-testid="order-reference">{order.orderReference}</span>,
              },
              {
                label: cartMessages.orderNoteLabel,
                value: order.orderNote && <span data-testid="order-note">{order.orderNote}</span>,
              },
            ]}
          />
        </Paper>
        <Paper withBorder radius="md" p="md" data-testid="order-totals">
          <FieldList
            fields={[
              {
                label: 'Warenwert (netto)',
                value: <span data-testid="order-net">{formatCurrency(order.orderTotal)}</span>,
              },
              ...(order.orderedTotal !== order.orderTotal
                ? [
                    {
                      label: 'Warenwert bestellt (netto)',
                      value: <span data-testid="order-ordered-net">{formatCurrency(order.orderedTotal)}</span>,
                    },
                  ]
                : []),
              {
                label: 'Lieferkosten',
                value: <span data-testid="order-delivery">{deliveryCostAmountText(order.deliveryCostTotal)}</span>,
              },
              {
                label: 'Gesamtsumme (netto)',
                value: (
                  <Text span fw={700} data-testid="order-total">
                    {formatCurrency(total)}
                  </Text>
                ),
              },
              { label: 'Lieferanten', value: order.supplierOrdersDetails.length },
            ]}
          />
          <Text size="xs" c="dimmed" mt="xs">
            Bestellwert und Lieferkosten werden vom Lieferanten geprüft und in der Auftragsbestätigung festgelegt.
          </Text>
        </Paper>
      </SimpleGrid>
      {order.supplierOrdersDetails.map((so) => (
        <SupplierOrderCard
          key={so.supplierOrderNumber}
          order={so}
          units={units}
          customerOrderNumber={order.customerOrderNumber}
        />
      ))}
    </Stack>
  );
}

/**
 * /bestellungen/bestellung?id=…&orderType=customer|supplier[&danke=true] – the order detail; buyers see their
 * customer order, staff customer or supplier orders. danke=true shows the thank-you after ordering.
 */
export default function OrderDetailPage() {
  const [params] = useSearchParams();
  const id = params.get('id')?.trim() ?? '';
  const orderType: OrderType = params.get('orderType') === 'supplier' ? 'supplier' : 'customer';
  const thankYou = params.get('danke') === 'true';
  const profile = useUserProfile().data;
  const role = profile?.role;
  const inIdsSession = Boolean(profile?.idsContextId);
  const staff = role !== undefined && isStaff(role);
  const units = useUnits();
  const canCustomer = orderType === 'customer' && (role === Role.Buyer || staff);
  const seller = role === Role.Seller;
  const canSupplier = orderType === 'supplier' && (staff || seller);

  const customer = usePartnerQuery(orderKeys.customerDetails(id, staff), () => ordersApi.customerOrder(id, staff), {
    enabled: Boolean(id) && canCustomer,
  });
  const staffSupplier = usePartnerQuery(orderKeys.supplierDetails(id), () => ordersApi.staffSupplierOrder(id), {
    enabled: Boolean(id) && canSupplier && staff,
  });
  const sellerSupplier = useSellerSupplierOrder(id, Boolean(id) && canSupplier && seller);
  const supplier = seller ? sellerSupplier : staffSupplier;
  const query = orderType === 'supplier' ? supplier : customer;
  const backLink = (
    <Anchor
      component={Link}
      to={
        seller && orderType === 'supplier'
          ? '/lieferantenbestellungen'
          : staff
            ? `/bestellungen${orderType === 'supplier' ? '?orderType=supplier' : ''}`
            : '/bestellungen'
      }
    >
      Zurück zur Übersicht
    </Anchor>
  );

  let content;
  if (
    !id ||
    (!canCustomer && !canSupplier) ||
    (query.isError && (hasStatus(query.error, 404) || hasStatus(query.error, 400)))
  ) {
    content = (
      <Alert color="gray" title="Bestellung nicht gefunden">
        {backLink}
      </Alert>
    );
  } else if (query.isError) {
    content = (
      <Alert color="red">Die Bestellung konnte nicht geladen werden. Bitte versuchen Sie es später erneut.</Alert>
    );
  } else if (!query.data) {
    content = (
      <Center py="xl">
        <Loader aria-label="Bestellung wird geladen" />
      </Center>
    );
  } else if (orderType === 'supplier') {
    content = (
      <Stack gap="lg">
        <SupplierOrderCard order={supplier.data!} units={units} documents={!seller} parties />
        {seller && <SupplierOrderActions order={supplier.data!} />}
        {staff && <TransmissionLog supplierOrderNumber={supplier.data!.supplierOrderNumber} />}
      </Stack>
    );
  } else {
    content = (
      <CustomerOrderView
        order={customer.data!}
        thankYou={thankYou}
        units={units}
        canReorder={role === Role.Buyer && !inIdsSession}
      />
    );
  }

  return (
    <Page title={id ? `Bestellung ${id}` : 'Bestellung'} documentTitle="Bestellung" actions={backLink}>
      {content}
    </Page>
  );
}
