import { useState } from 'react';
import { Alert, Badge, Button, Group, Image, Pagination, Select, Table, Text, UnstyledButton } from '@mantine/core';
import { Role, supplierStatusLabels, SupplierStatus } from '@shk/contracts';
import { useUserProfile } from '../../api/session';
import { problemTitle } from '../../api/problem';
import { ListSearchInput } from '../../ui/ListSearchInput';
import { Page } from '../../ui/Page';
import { SortMark } from '../../ui/DataTable';
import { useSupplierList, type SupplierListFilter } from '../../api/suppliers';
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

  const sortHeader = (key: SortKey, label: string) => {
    const active = filter.sortBy === key;
    const next = active && filter.sortDirection === 'asc' ? 'desc' : 'asc';
    return (
      <Table.Th aria-sort={active ? (filter.sortDirection === 'asc' ? 'ascending' : 'descending') : 'none'}>
        <UnstyledButton onClick={() => update({ sortBy: key, sortDirection: next })} fw={600}>
          <Group gap={4} wrap="nowrap" component="span">
            {label}
            <SortMark active={active} direction={filter.sortDirection === 'desc' ? 'desc' : 'asc'} />
          </Group>
        </UnstyledButton>
      </Table.Th>
    );
  };

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
      {list.isError ? (
        <Alert color="red" variant="light">
          {problemTitle(list.error, 'Die Lieferanten konnten nicht geladen werden.')}
        </Alert>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover aria-label="Lieferanten" data-testid="suppliers-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={72}>Logo</Table.Th>
                {sortHeader('name', 'Name')}
                {sortHeader('bpNumber', 'GP-Nummer')}
                {sortHeader('status', 'Status')}
                <Table.Th>{isAdmin ? 'Bearbeiten' : 'Info'}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data?.items.map((s) => (
                <Table.Tr key={s.supplierBusinessPartnerNo}>
                  <Table.Td>
                    {s.logoUrl && (
                      <Image
                        src={s.logoUrl.replace('size=160', 'size=48')}
                        alt={`Logo ${s.name}`}
                        h={24}
                        w="auto"
                        fit="contain"
                      />
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text fw={600} size="sm">
                      {s.name}
                    </Text>
                  </Table.Td>
                  <Table.Td>{s.supplierBusinessPartnerNo}</Table.Td>
                  <Table.Td>
                    <SupplierStatusBadge statusId={s.supplierStatusId} />
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => setOpen({ bp: s.supplierBusinessPartnerNo, name: s.name, isNew: false })}
                      aria-label={`${isAdmin ? 'Bearbeiten' : 'Info'}: ${s.name}`}
                    >
                      {isAdmin ? 'Bearbeiten' : 'Info'}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
              {list.data && !list.data.items.length && (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <Text c="dimmed">Keine Ergebnisse</Text>
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list.data && list.data.totalPages > 1 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {list.data.totalCount} Lieferanten
          </Text>
          <Pagination
            total={list.data.totalPages}
            value={filter.page}
            onChange={(page) => setFilter((f) => ({ ...f, page }))}
          />
        </Group>
      )}
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
