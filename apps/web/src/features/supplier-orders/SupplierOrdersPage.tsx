import { useState } from 'react';
import { Anchor, Badge, Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { supplierOrderStatusLabels, SUPPLIER_ORDER_MIN_DATE } from '@shk/contracts';
import { useSupplierOrderOverview, type SupplierOrderOverviewItem } from '../../api/supplier-orders';
import type { DataTableColumn } from '../../ui/DataTable';
import { ListScaffold, type ListNoun } from '../../ui/ListScaffold';
import { formatDate } from '../../ui/format';
import { OrderSum } from '../../ui/OrderSum';
import { Page } from '../../ui/Page';
import { GermanDateInput } from '../../ui/GermanDateInput';

/** Green once confirmed, red when sending failed or cancelled, blue while open. */
const statusColor = (id: number) => (id === 4 || id === 5 ? 'green' : id === 3 || id === 6 ? 'red' : 'blue');

const statusOptions = [
  { value: '', label: 'Alle' },
  ...Object.entries(supplierOrderStatusLabels).map(([value, label]) => ({ value, label })),
];

const ORDERS: ListNoun = { one: 'Bestellung', many: 'Bestellungen' };

const columns: DataTableColumn<SupplierOrderOverviewItem>[] = [
  {
    key: 'no',
    header: 'Bestellnummer',
    render: (o) => (
      <Anchor
        component={Link}
        to={`/bestellungen/bestellung?id=${encodeURIComponent(o.supplierOrderNumber)}&orderType=supplier`}
      >
        {o.supplierOrderNumber}
      </Anchor>
    ),
  },
  { key: 'date', header: 'Bestelldatum', render: (o) => formatDate(o.orderPlaced) },
  { key: 'buyer', header: 'Käufer', render: (o) => o.customerName },
  { key: 'bp', header: 'Kunden-GP-Nr.', render: (o) => o.customerBpNumber },
  { key: 'customerId', header: 'Kundennummer', render: (o) => o.supplierCustomerId ?? '–' },
  {
    key: 'status',
    header: 'Auftragsstatus',
    render: (o) => (
      <Badge variant="light" color={statusColor(o.supplierOrderStatusId)}>
        {supplierOrderStatusLabels[o.supplierOrderStatusId]}
      </Badge>
    ),
  },
  {
    key: 'sum',
    header: 'Summe (netto)',
    nowrap: true,
    render: (o) => <OrderSum value={o.totalPrice} ordered={o.orderedTotalPrice} />,
  },
];

/** Filters and page in the query string (page counted from 1); a filter change returns to the first page. */
function useOverviewParams() {
  const [params, setParams] = useSearchParams();
  const filter = {
    page: Math.max(1, Number(params.get('page')) || 1),
    status: Number(params.get('status')) || undefined,
    dateFrom: params.get('von') ?? undefined,
    dateTo: params.get('bis') ?? undefined,
    search: params.get('suche') ?? undefined,
  };
  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next);
  };
  return { filter, update };
}

type OverviewParams = ReturnType<typeof useOverviewParams>;

/** Status, date range and the search (committed with 'Suchen'). */
function OverviewFilters({ filter, update }: OverviewParams) {
  const [search, setSearch] = useState(filter.search ?? '');
  return (
    <Group align="flex-end" wrap="wrap">
      <Select
        label="Status"
        data={statusOptions}
        value={filter.status ? String(filter.status) : ''}
        onChange={(v) => update({ status: v || undefined })}
        allowDeselect={false}
      />
      <GermanDateInput
        label="Startdatum"
        min={SUPPLIER_ORDER_MIN_DATE}
        value={filter.dateFrom ?? ''}
        onChange={(value) => update({ von: value || undefined })}
      />
      <GermanDateInput
        label="Enddatum"
        min={filter.dateFrom ?? SUPPLIER_ORDER_MIN_DATE}
        value={filter.dateTo ?? ''}
        onChange={(value) => update({ bis: value || undefined })}
      />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          update({ suche: search.trim() || undefined });
        }}
      >
        <Group align="flex-end" gap="xs">
          <TextInput
            label="Suche"
            placeholder="Bestellnummer, GP-Nummer oder Kundennummer"
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
          <Button type="submit" variant="light">
            Suchen
          </Button>
        </Group>
      </form>
    </Group>
  );
}

/** /lieferantenbestellungen – the seller's 'Bestellungen': filters and page live in the query string. */
export default function SupplierOrdersPage() {
  const params = useOverviewParams();
  const { filter, update } = params;
  const list = useSupplierOrderOverview(filter);
  return (
    <Page title="Bestellungen">
      <Stack gap="md">
        <ListScaffold
          filters={<OverviewFilters {...params} />}
          error={list.isError && 'Die Bestellungen konnten nicht geladen werden. Bitte prüfen Sie die Filter.'}
          label="Bestellungen"
          columns={columns}
          rows={list.data?.items ?? []}
          rowKey={(o) => o.supplierOrderNumber}
          loading={list.isLoading}
          emptyText="Keine Bestellungen gefunden"
          testId="supplier-orders"
          totalCount={list.data?.totalCount}
          noun={ORDERS}
          // The query string counts pages from 1, the scaffold from 0.
          page={filter.page - 1}
          totalPages={list.data?.totalPages ?? 1}
          onPageChange={(page) => update({ page: String(page + 1) })}
        />
      </Stack>
    </Page>
  );
}
