import { Badge, type BadgeProps } from '@mantine/core';
import { RelationStatus, relationStatusLabels } from '@shk/contracts';

const statusColors: Record<number, string> = {
  [RelationStatus.Approved]: 'green',
  [RelationStatus.AwaitingConfirmation]: 'yellow',
  [RelationStatus.Rejected]: 'red',
  [RelationStatus.CustomerIdRequested]: 'blue',
  [RelationStatus.Blocked]: 'dark',
  [RelationStatus.Invalid]: 'gray',
};

export const relationStatusLabel = (statusId: number) => relationStatusLabels[statusId] ?? String(statusId);

/**
 * The relation status as a coloured badge (e.g. the home page's supplier cards). Apart from the status filter
 * (`relation-status.tsx`, a Select with its Combobox and floating-ui) so that showing a status needs neither.
 */
export function RelationStatusBadge({
  statusId,
  ...props
}: { statusId: number } & Omit<BadgeProps, 'color' | 'children'>) {
  return (
    <Badge
      variant="light"
      color={statusColors[statusId] ?? 'gray'}
      radius="sm"
      tt="none"
      data-status={statusId}
      {...props}
    >
      {relationStatusLabel(statusId)}
    </Badge>
  );
}
