import { useState } from 'react';
import { Alert, Button, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { parameterMessages } from '@shk/contracts';
import { problemTitle } from '../../api/problem';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { Page } from '../../ui/Page';
import { useParameters, type CustomParameterSummary } from '../../api/parameters';

/** /parameter – 'Zugeschnittene Parameter': key and description, searched in the browser, sorted by key. */
export default function ParametersPage() {
  const list = useParameters();
  const [term, setTerm] = useState('');
  const needle = term.trim().toLowerCase();
  const rows = (list.data ?? []).filter(
    (p) => !needle || p.key.toLowerCase().includes(needle) || p.description.toLowerCase().includes(needle),
  );
  const columns: DataTableColumn<CustomParameterSummary>[] = [
    { key: 'key', header: 'Schlüssel', sortValue: (p) => p.key, render: (p) => p.key, nowrap: true },
    { key: 'description', header: 'Beschreibung', render: (p) => p.description },
    {
      key: 'edit',
      header: 'Bearbeiten',
      nowrap: true,
      render: (p) => (
        <Button
          size="xs"
          variant="light"
          component={Link}
          to={`/parameter/${encodeURIComponent(p.key)}`}
          aria-label={`Parameter ${p.key} bearbeiten`}
        >
          Bearbeiten
        </Button>
      ),
    },
  ];
  return (
    <Page title={parameterMessages.title}>
      <TextInput
        label="Suche"
        placeholder="Schlüssel oder Beschreibung"
        value={term}
        onChange={(e) => setTerm(e.currentTarget.value)}
        w={{ base: '100%', sm: 360 }}
      />
      {list.isError ? (
        <Alert color="red" variant="light">
          {problemTitle(list.error, 'Die Parameter konnten nicht geladen werden.')}
        </Alert>
      ) : (
        <DataTable
          label={parameterMessages.title}
          columns={columns}
          rows={rows}
          rowKey={(p) => p.key}
          initialSort={{ key: 'key', direction: 'asc' }}
          emptyText="Keine Ergebnisse"
          loading={list.isPending}
          testId="parameters-table"
        />
      )}
    </Page>
  );
}
