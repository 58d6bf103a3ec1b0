import { useState } from 'react';
import { Alert, Anchor, Button, Card, Group, Modal, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import {
  isSecretParameter,
  limits,
  parameterMessages,
  parameterTypeLabels,
  problemToast,
  SECRET_MASK,
} from '@shk/contracts';
import { GermanDateInput } from '../../ui/GermanDateInput';
import { valuesValidFrom } from './values-valid-from';
import { ApiError, problemTitle } from '../../api/problem';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { FieldList } from '../../ui/FieldList';
import { formatDate } from '../../ui/format';
import { FullPageLoader } from '../../ui/FullPageLoader';
import { Page } from '../../ui/Page';
import { toast } from '../../ui/toast';
import { useParameter, useParameterValues, useValueMutations, type CustomParameterValue } from '../../api/parameters';
import { ValueModal } from './ValueModal';

const date = (v: string | null) => (v ? formatDate(v) : '–');

/** §8: a toast of the detail titles joined by '. ', else the main title. */
const failed = (e: unknown) => toast.error(problemToast(e instanceof ApiError ? e.problem : null));

/** /parameter/{key}: the parameter, its values, add/edit modal and delete confirmation. */
export default function ParameterDetailPage() {
  const key = useParams().key ?? '';
  const parameter = useParameter(key);
  const values = useParameterValues(key);
  const mutations = useValueMutations(key);
  const [editing, setEditing] = useState<CustomParameterValue | 'new' | null>(null);
  const [deleting, setDeleting] = useState<CustomParameterValue | null>(null);
  // The list starts at the portal's first day (spec: custom-parameter list default start 2024-01-01).
  const [from, setFrom] = useState<string>(limits.minDate);

  if (parameter.isPending || values.isPending) return <FullPageLoader />;
  if (parameter.isError || values.isError)
    return (
      <Page title={parameterMessages.title}>
        <Alert color="red">
          {problemTitle(parameter.error ?? values.error, 'Der Parameter konnte nicht geladen werden.')}
        </Alert>
      </Page>
    );
  const p = parameter.data;
  const rows = values.data;
  // A secret (type Geheimnis) is write-only: the API never sends it, the page shows it masked.
  const shown = (v: CustomParameterValue) => (isSecretParameter(p.typeId) ? SECRET_MASK : (v.value ?? ''));
  const named = (v: CustomParameterValue) => (isSecretParameter(p.typeId) ? `Nr. ${rows.indexOf(v) + 1}` : v.value);
  const columns: DataTableColumn<CustomParameterValue>[] = [
    { key: 'number', header: 'Nummer', render: (v) => rows.indexOf(v) + 1, nowrap: true },
    {
      key: 'value',
      header: 'Wert',
      render: (v) => <span data-testid="parameter-value">{shown(v)}</span>,
    },
    { key: 'validFrom', header: 'Startdatum', render: (v) => date(v.validFrom), nowrap: true },
    { key: 'validTo', header: 'Enddatum', render: (v) => date(v.validTo), nowrap: true },
    {
      key: 'edit',
      header: 'Bearbeiten',
      render: (v) => (
        <Button size="xs" variant="light" onClick={() => setEditing(v)} aria-label={`Wert ${named(v)} bearbeiten`}>
          Bearbeiten
        </Button>
      ),
    },
    {
      key: 'delete',
      header: 'Löschen',
      render: (v) => (
        <Button
          size="xs"
          variant="subtle"
          color="red"
          onClick={() => setDeleting(v)}
          aria-label={`Wert ${named(v)} löschen`}
        >
          Löschen
        </Button>
      ),
    },
  ];

  const save = async (body: { value: string; validFrom: string | null; validTo: string | null }) => {
    try {
      if (editing === 'new') await mutations.add.mutateAsync(body);
      else if (editing) await mutations.update.mutateAsync({ id: editing.id, body });
      toast.success(parameterMessages.saved);
      setEditing(null);
    } catch (e) {
      failed(e);
    }
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      await mutations.remove.mutateAsync(deleting.id);
      toast.success(parameterMessages.deleted);
      setDeleting(null);
    } catch (e) {
      failed(e);
    }
  };

  return (
    <Page title={parameterMessages.title} documentTitle={`${parameterMessages.title} – ${p.key}`}>
      <Anchor component={Link} to="/parameter" size="sm">
        ← Zurück zur Liste
      </Anchor>
      <Card withBorder radius="md" padding="lg">
        <FieldList
          fields={[
            { label: 'Schlüssel', value: p.key },
            { label: 'Beschreibung', value: p.description },
            { label: 'Typ', value: parameterTypeLabels[p.typeId] ?? String(p.typeId) },
            { label: 'Maximale Anzahl Werte', value: String(p.maxValueCount) },
            { label: 'Öffentlich', value: p.isPublic ? 'Ja' : 'Nein' },
          ]}
        />
      </Card>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Text fw={600}>Werte</Text>
        <GermanDateInput label="Gültig ab" value={from} onChange={setFrom} w={160} data-testid="values-from" />
        <Button onClick={() => setEditing('new')}>Wert hinzufügen</Button>
      </Group>
      <DataTable
        label="Werte"
        columns={columns}
        rows={valuesValidFrom(rows, from)}
        rowKey={(v) => v.id}
        emptyText="Keine Werte"
        testId="parameter-values"
      />
      <ValueModal
        opened={editing !== null}
        parameterKey={p.key}
        typeId={p.typeId}
        value={editing === 'new' ? null : editing}
        saving={mutations.add.isPending || mutations.update.isPending}
        onClose={() => setEditing(null)}
        onSave={(body) => void save(body)}
      />
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title="Wert löschen" centered>
        <Text>{parameterMessages.deleteQuestion}</Text>
        <Text fw={600} mt="xs">
          {deleting && shown(deleting)}
        </Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setDeleting(null)}>
            Abbrechen
          </Button>
          <Button color="red" onClick={() => void remove()} loading={mutations.remove.isPending}>
            Löschen
          </Button>
        </Group>
      </Modal>
    </Page>
  );
}
