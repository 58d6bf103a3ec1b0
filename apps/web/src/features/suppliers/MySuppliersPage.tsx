import { useCallback, useState } from 'react';
import { Alert, Anchor, Button, Center, EmptyState, Group, Loader, Stack, Text, Title, Tooltip } from '@mantine/core';
import { defaultRelationStatuses, RelationStatus, relationMessages } from '@shk/contracts';
import { useRelations, useSuppliersWithoutRelation, type Relation } from '../../api/relations';
import { problemTitle } from '../../api/problem';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { ListSearchInput } from '../../ui/ListSearchInput';
import { Page } from '../../ui/Page';
import { NetworkIcon } from '../../ui/icons';
import {
  parseStatusParam,
  RelationStatusBadge,
  RelationStatusFilter,
  relationStatusLabel,
} from '../../ui/relation-status';
import { useUrlParam } from '../../ui/use-url-param';
import { AddSupplierDialog, type WizardSupplier } from './AddSupplierDialog';
import { CustomerNumberDialog } from './CustomerNumberDialog';
import { SupplierCardGrid } from './SupplierCards';
import { SupplierInfoDialog } from './SupplierInfo';

interface WizardState {
  supplier: WizardSupplier | null;
  customerNumber: string | null;
}

const toWizardSupplier = (relation: Relation): WizardSupplier => ({
  bpNumber: relation.supplier.bpNumber,
  name: relation.supplier.name,
  city: relation.supplier.address.city,
  requiredOnboardingForm: relation.supplier.requiredOnboardingForm,
});

/** /meine-lieferanten – 'Meine Lieferanten' of the buyer's current business partner. */
export default function MySuppliersPage() {
  const [statusParam, setStatusParam] = useUrlParam('status');
  const [termParam, setTermParam] = useUrlParam('suche');
  const status = parseStatusParam(statusParam, defaultRelationStatuses);
  const term = termParam ?? '';
  const filtered = status !== null || term.trim() !== '';

  const list = useRelations({ statusIds: status === null ? [] : [status], name: term });
  const without = useSuppliersWithoutRelation();
  const canAdd = (without.data?.length ?? 0) > 0;

  const [wizard, setWizard] = useState<WizardState | null>(null);
  const [wizardOpened, setWizardOpened] = useState(false);
  const [numberFor, setNumberFor] = useState<Relation | null>(null);
  const [infoFor, setInfoFor] = useState<{ bpNumber: string; name: string } | null>(null);

  const openWizard = (state: WizardState) => {
    setWizard(state);
    setWizardOpened(true);
  };
  const commitTerm = useCallback((value: string) => setTermParam(value.trim() ? value : null), [setTermParam]);

  const columns: DataTableColumn<Relation>[] = [
    {
      key: 'supplier',
      header: 'Lieferant',
      sortValue: (r) => r.supplier.name,
      render: (r) => (
        <Anchor
          component="button"
          type="button"
          fw={600}
          ta="left"
          onClick={() => setInfoFor({ bpNumber: r.supplier.bpNumber, name: r.supplier.name })}
          aria-label={`Lieferanteninformationen zu ${r.supplier.name}`}
        >
          {r.supplier.name}
        </Anchor>
      ),
    },
    {
      key: 'supplierNumber',
      header: 'Lieferantennummer',
      sortValue: (r) => r.supplier.bpNumber,
      render: (r) => r.supplier.bpNumber,
      nowrap: true,
    },
    { key: 'customerNumber', header: 'Kundennummer', render: (r) => r.supplierCustomerNumber ?? '–' },
    {
      key: 'status',
      header: 'Status',
      sortValue: (r) => r.relationStatusId,
      render: (r) => (
        <Stack gap={4} align="flex-start">
          <RelationStatusBadge statusId={r.relationStatusId} />
          {r.relationStatusId === RelationStatus.Rejected && r.comments && (
            <Text size="xs" c="dimmed" data-testid="rejection-reason">{`Grund: ${r.comments}`}</Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'edit',
      header: 'Bearbeiten',
      nowrap: true,
      render: (r) => {
        if (r.relationStatusId === RelationStatus.CustomerIdRequested) {
          return (
            <Button
              size="xs"
              variant="light"
              onClick={() => setNumberFor(r)}
              aria-label={`Kundennummer für ${r.supplier.name} eingeben`}
            >
              Kundennummer eingeben
            </Button>
          );
        }
        if (r.relationStatusId === RelationStatus.Rejected) {
          return (
            <Tooltip label={r.comments ?? relationStatusLabel(r.relationStatusId)} multiline maw={320} withArrow>
              <Button
                size="xs"
                variant="light"
                color="red"
                onClick={() =>
                  openWizard({ supplier: toWizardSupplier(r), customerNumber: r.supplierCustomerNumber ?? '' })
                }
                aria-label={`Neu anfragen bei ${r.supplier.name}`}
              >
                Neu anfragen
              </Button>
            </Tooltip>
          );
        }
        return (
          <Text c="dimmed" size="sm">
            –
          </Text>
        );
      },
    },
  ];

  const relations = list.data?.items ?? [];
  const addButton = (
    <Button onClick={() => openWizard({ supplier: null, customerNumber: null })} disabled={!canAdd}>
      Lieferanten hinzufügen
    </Button>
  );

  return (
    <Page
      title="Meine Lieferanten"
      actions={
        canAdd || without.isPending ? (
          addButton
        ) : (
          <Tooltip label="Es gibt keine weiteren Lieferanten ohne Geschäftsbeziehung.">
            <span>{addButton}</span>
          </Tooltip>
        )
      }
    >
      <Group align="flex-end" gap="md" wrap="wrap">
        <ListSearchInput label="Suche" placeholder="Name oder Lieferantennummer" value={term} onCommit={commitTerm} />
        <RelationStatusFilter
          statuses={defaultRelationStatuses}
          value={status}
          onChange={(value) => setStatusParam(value === null ? null : String(value))}
        />
      </Group>

      {list.isPending ? (
        <Center py="xl">
          <Loader aria-label="Wird geladen" />
        </Center>
      ) : list.isError ? (
        <Alert color="red" variant="light">
          {problemTitle(list.error, 'Die Lieferanten konnten nicht geladen werden.')}
        </Alert>
      ) : relations.length === 0 ? (
        <EmptyState
          icon={<NetworkIcon size={28} />}
          variant="light"
          title={relationMessages.emptyNetwork}
          description={
            filtered
              ? `${relationMessages.noResults}: Zu Ihrer Suche wurden keine Lieferanten gefunden. Fügen Sie weitere Lieferanten hinzu, um bei ihnen zu bestellen.`
              : 'Sie haben noch keine Lieferanten. Fügen Sie Lieferanten hinzu, um bei ihnen zu bestellen.'
          }
          py="xl"
          data-testid="suppliers-empty"
        />
      ) : (
        <>
          <section aria-labelledby="suppliers-overview">
            <Title order={2} id="suppliers-overview" mb="md">
              Übersicht
            </Title>
            <SupplierCardGrid relations={relations} />
          </section>
          <section aria-labelledby="suppliers-relations">
            <Title order={2} id="suppliers-relations" mb="md">
              Geschäftsbeziehungen
            </Title>
            <DataTable
              label="Geschäftsbeziehungen"
              columns={columns}
              rows={relations}
              rowKey={(r) => r.id}
              testId="suppliers-table"
              minWidth={760}
            />
          </section>
        </>
      )}

      <AddSupplierDialog
        opened={wizardOpened}
        onClose={() => setWizardOpened(false)}
        initialSupplier={wizard?.supplier ?? null}
        initialCustomerNumber={wizard?.customerNumber ?? null}
      />
      <CustomerNumberDialog relation={numberFor} onClose={() => setNumberFor(null)} />
      <SupplierInfoDialog supplier={infoFor} onClose={() => setInfoFor(null)} />
    </Page>
  );
}
