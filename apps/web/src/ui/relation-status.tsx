import { Select } from '@mantine/core';
import { relationStatusLabel } from './relation-status-badge';

/**
 * Relation status pieces shared by 'Meine Lieferanten', 'Meine Kunden' and 'Geschäftspartner':
 * the coloured badge, the status filter and its URL value.
 */
export { RelationStatusBadge, relationStatusLabel } from './relation-status-badge';
export { parseStatusParam } from './status-param';

interface RelationStatusFilterProps {
  /** The statuses to offer (four for buyer and seller, six for staff). */
  statuses: readonly number[];
  value: number | null;
  onChange: (value: number | null) => void;
  label?: string;
}

/** 'Status' select with 'Alle' first; choosing a status restricts the list to it. */
export function RelationStatusFilter({ statuses, value, onChange, label = 'Status' }: RelationStatusFilterProps) {
  return (
    <Select
      label={label}
      data={[
        { value: 'all', label: 'Alle' },
        ...statuses.map((id) => ({ value: String(id), label: relationStatusLabel(id) })),
      ]}
      value={value === null ? 'all' : String(value)}
      onChange={(next) => onChange(next && next !== 'all' ? Number(next) : null)}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
      w={{ base: '100%', sm: 240 }}
    />
  );
}
