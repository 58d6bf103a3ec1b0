import { useState } from 'react';
import { Badge, Button, Group, Image, Select, Text } from '@mantine/core';
import { Role, supplierStatusLabels, SupplierStatus } from '@shk/contracts';
import { useUserProfile } from '../../api/session';
import { problemTitle } from '../../api/problem';
import { ListSearchInput } from '../../ui/ListSearchInput';
import { Page } from '../../ui/Page';
import type { DataTableColumn } from '../../ui/DataTable';
import { ListScaffold } from '../../ui/ListScaffold';
import { useSupplierList, type PagedSuppliers, type SupplierListFilter } from '../../api/suppliers';
import { AddSupplierDialog } from './AddSupplierDialog';
import { SupplierDialog, type SupplierDialogTarget } from './SupplierDialog';
import { WorkflowsSection } from './WorkflowsSection';
import { PunchoutSessionsSection } from './PunchoutSessionsSection';

const PAGE_SIZE = 25;
const statusColors: Record<number, string> = { 1: 'green', 2: 'gray', 3: 'yellow' };

export function SupplierStatusBadge({ statusId }: { statusId: number }) {
  return (
    <Badge color={statusColors[statusId] ?? 'gray'} variant="light">
      {supplierStatusLabels[statusId] ?? statusId}
    </Badge>
  );
}

type SortKey = SupplierListFilter['sortBy'];

/** Logo, name, GP number and status (the last three sorted by the server), and the dialog's button. */
type SupplierListItem = PagedSuppliers['items'][number];

const supplierColumns = (
  isAdmin: boolean,
  open: (target: SupplierDialogTarget) => void,
): DataTableColumn<SupplierListItem>[] => [
  {
    key: 'logo',
    header: 'Logo',
    render: (s) =>
      s.logoUrl && (
        <Image src={s.logoUrl.replace('size=160', 'size=48')} alt={`Logo ${s.name}`} h={24} w="auto" fit="contain" />
      ),
  },
  {
    key: 'name',
    header: 'Name',
    serverSortable: true,
    render: (s) => (
      <Text fw={600} size="sm">
        {s.name}
      </Text>
    ),
  },
  { key: 'bpNumber', header: 'GP-Nummer', serverSortable: true, render: (s) => s.supplierBusinessPartnerNo },
  {
    key: 'status',
    header: 'Status',
    serverSortable: true,
    render: (s) => <SupplierStatusBadge statusId={s.supplierStatusId} />,
  },
  {
    key: 'edit',
    header: isAdmin ? 'Bearbeiten' : 'Info',
    render: (s) => (
      <Button
        size="xs"
        variant="light"
        onClick={() => open({ bp: s.supplierBusinessPartnerNo, name: s.name, isNew: false })}
        aria-label={`${isAdmin ? 'Bearbeiten' : 'Info'}: ${s.name}`}
      >
        {isAdmin ? 'Bearbeiten' : 'Info'}
      </Button>
    ),
  },
];

/** /admin – 'Lieferanten': server-side filter, sort and pages; edit (Administrator) or info (others). */
export default function SuppliersPage() {
  const profile = useUserProfile();
  const isAdmin = profile.data?.role === Role.Administrator;
  const [filter, setFilter] = useState<SupplierListFilter>({
    page: 1,
    pageSize: PAGE_SIZE,
    name: '',
    statusId: null,
    sortBy: 'name',
    sortDirection: 'asc',
  });
  const list = useSupplierList(filter);
  const [adding, setAdding] = useState(false);
  const [open, setOpen] = useState<SupplierDialogTarget | null>(null);
  const update = (patch: Partial<SupplierListFilter>) => setFilter((f) => ({ ...f, page: 1, ...patch }));

  return (
    <Page
      title="Lieferanten"
      actions={
        isAdmin && (
          <Button onClick={() => setAdding(true)} data-testid="add-supplier">
            Lieferant hinzufügen
          </Button>
        )
      }
    >
      <Group align="flex-end" gap="md" wrap="wrap">
        <ListSearchInput
          label="Suche"
          placeholder="Name oder Geschäftspartnernummer"
          value={filter.name}
          onCommit={(name) => update({ name: name.trim() })}
          w={{ base: '100%', sm: 320 }}
        />
        <Select
          label="Status"
          data={[
            { value: 'all', label: 'Alle' },
            ...Object.values(SupplierStatus).map((id) => ({ value: String(id), label: supplierStatusLabels[id] })),
          ]}
          value={filter.statusId === null ? 'all' : String(filter.statusId)}
          onChange={(v) => update({ statusId: !v || v === 'all' ? null : Number(v) })}
          allowDeselect={false}
          w={220}
        />
      </Group>
      <ListScaffold
        error={list.isError && problemTitle(list.error, 'Die Lieferanten konnten nicht geladen werden.')}
        label="Lieferanten"
        columns={supplierColumns(isAdmin, setOpen)}
        rows={list.data?.items ?? []}
        rowKey={(s) => s.supplierBusinessPartnerNo}
        loading={list.isPending}
        testId="suppliers-table"
        minWidth={720}
        sort={{ key: filter.sortBy, direction: filter.sortDirection === 'desc' ? 'desc' : 'asc' }}
        onSortChange={(sort) => update({ sortBy: sort.key as SortKey, sortDirection: sort.direction })}
        totalCount={list.data?.totalCount}
        noun={{ one: 'Lieferant', many: 'Lieferanten' }}
        page={filter.page - 1}
        totalPages={list.data?.totalPages ?? 1}
        onPageChange={(page) => setFilter((f) => ({ ...f, page: page + 1 }))}
      />
      {isAdmin && <WorkflowsSection />}
      <PunchoutSessionsSection />
      <AddSupplierDialog
        opened={adding}
        onClose={() => setAdding(false)}
        onFound={(candidate) => {
          setAdding(false);
          setOpen({ bp: candidate.businessPartnerNo, name: candidate.name, isNew: true });
        }}
      />
      <SupplierDialog target={open} readOnly={!isAdmin} onClose={() => setOpen(null)} onCreated={(t) => setOpen(t)} />
    </Page>
  );
}
