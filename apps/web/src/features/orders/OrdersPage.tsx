import { useEffect, type ReactNode } from 'react';
import { Anchor, Badge, Group, SegmentedControl, Select } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { useMediaQuery } from '@mantine/hooks';
import { cartMessages, isStaff, limits, Role } from '@shk/contracts';
import { ListSearchInput } from '../../ui/ListSearchInput';
import {
  useBuyerOrders,
  useStaffOrders,
  type CustomerOrderList,
  type CustomerOrderListItem,
  type OrderType,
  type SupplierOrderList,
  type SupplierOrderListItem,
} from '../../api/orders';
import { useUserProfile } from '../../api/session';
import type { DataTableColumn } from '../../ui/DataTable';
import { ListScaffold, type ListNoun } from '../../ui/ListScaffold';
import { formatDate } from '../../ui/format';
import { OrderSum } from '../../ui/OrderSum';
import { Page } from '../../ui/Page';
import { customerStatusLabel, orderDetailUrl, statusColor, supplierStatusLabel } from './order-format';
import { InboundOrderResponses } from './InboundOrderResponses';

const ALL = '';

/** Spec §8: an order list that fails to load is logged to the console; loading stops. */
function useLogFailure(error: unknown) {
  useEffect(() => {
    if (error) console.error('Bestellungen konnten nicht geladen werden', error);
  }, [error]);
}

/** List state in the URL; the page is zero-based in the UI and one-based in requests (spec §5). */
function useListState() {
  const [params, setParams] = useSearchParams();
  const pageParam = Number(params.get('page'));
  const page = Number.isInteger(pageParam) && pageParam > 0 ? Math.min(pageParam, limits.maxPages - 1) : 0;
  const number = (name: string) => {
    const value = Number(params.get(name));
    return params.get(name) && Number.isInteger(value) ? value : undefined;
  };
  const set = (changes: Record<string, string | number | undefined>, resetPage = true) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined || value === '') next.delete(name);
      else next.set(name, String(value));
    }
    if (resetPage && !('page' in changes)) next.delete('page');
    setParams(next, { replace: false });
  };
  return {
    page,
    orderType: (params.get('orderType') === 'supplier' ? 'supplier' : 'customer') as OrderType,
    year: number('year'),
    statusId: number('status'),
    buyerName: params.get('buyerName') ?? undefined,
    supplierId: params.get('supplierId') ?? undefined,
    search: params.get('q') ?? undefined,
    set,
  };
}

function YearSelect({
  years,
  value,
  onChange,
}: {
  years: readonly number[];
  value: number | undefined;
  onChange: (year: number | undefined) => void;
}) {
  const data = [{ value: ALL, label: 'Alle Jahre' }, ...years.map((y) => ({ value: String(y), label: String(y) }))];
  if (value !== undefined && !years.includes(value)) data.push({ value: String(value), label: String(value) });
  return (
    <Select
      label="Jahr"
      data={data}
      value={value === undefined ? ALL : String(value)}
      onChange={(v) => onChange(v ? Number(v) : undefined)}
      allowDeselect={false}
      w={140}
    />
  );
}

const ORDERS: ListNoun = { one: 'Bestellung', many: 'Bestellungen' };
const LOAD_FAILED = 'Die Bestellungen konnten nicht geladen werden.';

const numberColumn = <Row extends { orderNumber: string }>(orderType: OrderType): DataTableColumn<Row> => ({
  key: 'number',
  header: 'Bestellnummer',
  nowrap: true,
  render: (o) => (
    <Anchor component={Link} to={orderDetailUrl(o.orderNumber, orderType)} fw={600}>
      {o.orderNumber}
    </Anchor>
  ),
});

const dateColumn = <Row extends { orderDate: string }>(): DataTableColumn<Row> => ({
  key: 'date',
  header: 'Bestelldatum',
  nowrap: true,
  render: (o) => formatDate(o.orderDate),
});

const sumColumn = <
  Row extends { totalValueExcludingVat: number; orderedValueExcludingVat: number },
>(): DataTableColumn<Row> => ({
  key: 'sum',
  header: 'Summe (netto)',
  nowrap: true,
  render: (o) => <OrderSum value={o.totalValueExcludingVat} ordered={o.orderedValueExcludingVat} />,
});

function StatusBadge({ id, orderType }: { id: number; orderType: OrderType }) {
  return (
    <Badge variant="light" color={statusColor(id, orderType)}>
      {orderType === 'supplier' ? supplierStatusLabel(id) : customerStatusLabel(id)}
    </Badge>
  );
}

/** A buyer's columns: Bestellnummer, Bestelldatum, Lieferung an, Auftragsstatus, Summe (netto). */
const buyerColumns: DataTableColumn<CustomerOrderListItem>[] = [
  numberColumn('customer'),
  dateColumn(),
  { key: 'dispatch', header: 'Lieferung an', render: (o) => o.dispatchTo ?? '–' },
  {
    key: 'status',
    header: 'Auftragsstatus',
    nowrap: true,
    render: (o) => <StatusBadge id={o.customerOrderStatusId} orderType="customer" />,
  },
  sumColumn(),
];

const staffCustomerColumns: DataTableColumn<CustomerOrderListItem>[] = [
  numberColumn('customer'),
  dateColumn(),
  { key: 'buyer', header: 'Käufer', render: (o) => o.buyerName },
  {
    key: 'status',
    header: 'Auftragsstatus',
    nowrap: true,
    render: (o) => <StatusBadge id={o.customerOrderStatusId} orderType="customer" />,
  },
  sumColumn(),
];

const staffSupplierColumns: DataTableColumn<SupplierOrderListItem>[] = [
  numberColumn('supplier'),
  { key: 'supplier', header: 'Lieferant', render: (o) => o.supplierName },
  dateColumn(),
  { key: 'buyer', header: 'Käufer', render: (o) => o.buyerName },
  {
    key: 'status',
    header: 'Auftragsstatus',
    nowrap: true,
    render: (o) => <StatusBadge id={o.supplierOrderStatusId} orderType="supplier" />,
  },
  sumColumn(),
];

/** Searching customer orders by order number, article (number or name) or project, besides the year. */
function OrderSearch({ value, onChange }: { value: string | undefined; onChange: (q: string | undefined) => void }) {
  return (
    <ListSearchInput
      label={cartMessages.orderSearchLabel}
      value={value ?? ''}
      onCommit={(q) => onChange(q.trim() || undefined)}
      maxLength={limits.orderSearch}
      w={{ base: '100%', xs: 300 }}
    />
  );
}

/** 'Meine Bestellungen' of a buyer: the search, the year filter and the buyer's columns. */
function BuyerOrders() {
  const state = useListState();
  const orders = useBuyerOrders({
    page: state.page + 1,
    pageSize: limits.orderListPageSize,
    year: state.year,
    search: state.search,
  });
  useLogFailure(orders.error);
  const data = orders.data;
  return (
    <Page title="Meine Bestellungen">
      <ListScaffold
        filters={
          <Group align="flex-end" wrap="wrap">
            <OrderSearch value={state.search} onChange={(q) => state.set({ q })} />
            <YearSelect
              years={data?.availableOrderYears ?? []}
              value={state.year}
              onChange={(year) => state.set({ year })}
            />
          </Group>
        }
        error={orders.isError && LOAD_FAILED}
        label="Meine Bestellungen"
        columns={buyerColumns}
        rows={data?.items ?? []}
        rowKey={(o) => o.orderNumber}
        loading={orders.isPending}
        emptyText="Noch keine Bestellungen"
        testId="orders-table"
        totalCount={data?.totalCount}
        noun={ORDERS}
        page={state.page}
        totalPages={data?.totalPages ?? 1}
        onPageChange={(page) => state.set({ page }, false)}
      />
    </Page>
  );
}

type ListState = ReturnType<typeof useListState>;
type StaffOrderList = CustomerOrderList | SupplierOrderList;

const withAll = (options: { value: string; label: string }[]) => [{ value: ALL, label: 'Alle' }, ...options];

/** Staff's filters: order type, buyer, status, supplier (supplier orders only) and year. */
function StaffFilters({ state, data }: { state: ListState; data: StaffOrderList | undefined }) {
  const narrow = useMediaQuery('(max-width: 30em)', false, { getInitialValueInEffect: false });
  const type = state.orderType;
  return (
    <>
      <SegmentedControl
        value={type}
        onChange={(value) =>
          state.set({
            orderType: value === 'supplier' ? 'supplier' : undefined,
            supplierId: undefined,
            status: undefined,
          })
        }
        data={[
          { value: 'customer', label: 'Kundenbestellungen' },
          { value: 'supplier', label: 'Lieferantenbestellungen' },
        ]}
        // Both labels side by side are wider than a phone: there they stand one above the other.
        orientation={narrow ? 'vertical' : 'horizontal'}
        w={narrow ? '100%' : 'fit-content'}
        aria-label="Bestellart"
      />
      <Group align="flex-end" gap="sm" wrap="wrap">
        {type === 'customer' && <OrderSearch value={state.search} onChange={(q) => state.set({ q })} />}
        <Select
          label="Käufer"
          data={withAll((data?.availableBuyerNames ?? []).map((name) => ({ value: name, label: name })))}
          value={state.buyerName ?? ALL}
          onChange={(value) => state.set({ buyerName: value || undefined })}
          allowDeselect={false}
          searchable
          w={260}
        />
        <Select
          label="Status"
          data={withAll((data?.availableOrderStatuses ?? []).map((s) => ({ value: String(s.id), label: s.name })))}
          value={state.statusId === undefined ? ALL : String(state.statusId)}
          onChange={(value) => state.set({ status: value || undefined })}
          allowDeselect={false}
          w={240}
        />
        {type === 'supplier' && (
          <Select
            label="Lieferant"
            data={withAll((data?.availableSellers ?? []).map((s) => ({ value: String(s.id), label: s.name })))}
            value={state.supplierId ?? ALL}
            onChange={(value) => state.set({ supplierId: value || undefined })}
            allowDeselect={false}
            searchable
            w={260}
          />
        )}
        <YearSelect
          years={data?.availableOrderYears ?? []}
          value={state.year}
          onChange={(year) => state.set({ year })}
        />
      </Group>
    </>
  );
}

/** Staff: customer orders ('Kundenbestellungen') or supplier orders ('Lieferantenbestellungen') by orderType, with filters. */
function StaffOrders() {
  const state = useListState();
  const type = state.orderType;
  const filter = {
    page: state.page + 1,
    pageSize: limits.orderListPageSize,
    year: state.year,
    search: type === 'customer' ? state.search : undefined,
    buyerName: state.buyerName,
    statusId: state.statusId,
    supplierId: type === 'supplier' ? state.supplierId : undefined,
  };
  const orders = useStaffOrders(type, filter);
  useLogFailure(orders.error);
  const data = orders.data;
  const title = type === 'supplier' ? 'Lieferantenbestellungen' : 'Kundenbestellungen';
  const scaffold = {
    filters: <StaffFilters state={state} data={data} />,
    error: orders.isError && LOAD_FAILED,
    label: title,
    rowKey: (o: { orderNumber: string }) => o.orderNumber,
    loading: orders.isPending,
    emptyText: 'Keine Bestellungen',
    testId: 'orders-table',
    totalCount: data?.totalCount,
    noun: ORDERS,
    page: state.page,
    totalPages: data?.totalPages ?? 1,
    onPageChange: (page: number) => state.set({ page }, false),
  };
  return (
    <Page title={title}>
      {type === 'supplier' ? (
        <ListScaffold
          {...scaffold}
          columns={staffSupplierColumns}
          rows={(data as SupplierOrderList | undefined)?.items ?? []}
        />
      ) : (
        <ListScaffold
          {...scaffold}
          columns={staffCustomerColumns}
          rows={(data as CustomerOrderList | undefined)?.items ?? []}
        />
      )}
      {type === 'supplier' && <InboundOrderResponses />}
    </Page>
  );
}

/**
 * /bestellungen – by role (spec §6): a buyer gets 'Meine Bestellungen'; staff customer or supplier orders
 * by orderType; a seller gets the supplier orders, which the supplier-orders feature contributes (`sellerOrders`).
 */
export default function OrdersPage({ sellerOrders }: { sellerOrders?: ReactNode }) {
  const role = useUserProfile().data?.role;
  if (role === Role.Buyer) return <BuyerOrders />;
  if (role !== undefined && isStaff(role)) return <StaffOrders />;
  if (role === Role.Seller) return sellerOrders ?? null;
  return null;
}
