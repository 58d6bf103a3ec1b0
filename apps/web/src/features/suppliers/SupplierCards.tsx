import { Anchor, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { RelationStatus } from '@shk/contracts';
import type { Relation } from '../../api/relations';
import { RelationStatusBadge } from '../../ui/relation-status-badge';
import { supplierSearchUrl } from './supplier-search-url';
import { SupplierLogo } from '../../ui/SupplierLogo';

/** A supplier of the buyer: name, number, status badge and the way to its offers in the search. */
function SupplierCard({ relation, withStatus = true }: { relation: Relation; withStatus?: boolean }) {
  const { supplier } = relation;
  const to = supplierSearchUrl({
    bpNumber: supplier.bpNumber,
    name: supplier.name,
    organisationType: supplier.organisationType,
  });
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      data-testid="supplier-card"
      data-supplier={supplier.bpNumber}
      component="article"
      aria-label={supplier.name}
    >
      <Stack gap="xs" h="100%" justify="space-between">
        <Stack gap={4}>
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <Group gap="xs" wrap="nowrap">
              <SupplierLogo bpNumber={supplier.bpNumber} name={supplier.name} height={28} />
              <Text fw={700} lh={1.3}>
                {supplier.name}
              </Text>
            </Group>
            {withStatus && <RelationStatusBadge statusId={relation.relationStatusId} style={{ flex: 'none' }} />}
          </Group>
          <Text size="sm" c="dimmed">
            {[supplier.bpNumber, supplier.address.city].filter(Boolean).join(' · ')}
          </Text>
          {relation.relationStatusId === RelationStatus.Approved && !relation.isActive && (
            <Text size="sm" c="orange">
              Die Geschäftsbeziehung ist derzeit nicht aktiv.
            </Text>
          )}
        </Stack>
        {/* The accessible name starts with the visible text (WCAG 2.5.3 label in name), then names the supplier. */}
        <Anchor component={Link} to={to} size="sm" fw={600} aria-label={`Sortiment anzeigen – ${supplier.name}`}>
          Sortiment anzeigen →
        </Anchor>
      </Stack>
    </Card>
  );
}

export function SupplierCardGrid({
  relations,
  withStatus = true,
}: {
  relations: readonly Relation[];
  withStatus?: boolean;
}) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 4 }} spacing="md">
      {relations.map((relation) => (
        <SupplierCard key={relation.id} relation={relation} withStatus={withStatus} />
      ))}
    </SimpleGrid>
  );
}
