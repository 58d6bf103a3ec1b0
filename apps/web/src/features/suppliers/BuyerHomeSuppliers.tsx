import { lazy, Suspense, useState } from 'react';
import { Alert, Anchor, Button, Card, Center, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { RelationStatus } from '@shk/contracts';
import { useRelations, useSuppliersWithoutRelation, type SupplierSummary } from '../../api/relations';
import type { WizardSupplier } from './AddSupplierDialog';
import { SupplierCardGrid } from './SupplierCards';

/** The wizard (react-hook-form, zod) is loaded when it is first opened, not with every home page. */
const AddSupplierDialog = lazy(() => import('./AddSupplierDialog').then((m) => ({ default: m.AddSupplierDialog })));

/**
 * The buyer's home page sections (spec §2 Home): cards of the suppliers with an active relation, and
 * the further suppliers without a relation, each of which can be added right here.
 */
export function BuyerHomeSuppliers() {
  const approved = useRelations({ statusIds: [RelationStatus.Approved], name: '' });
  const without = useSuppliersWithoutRelation();
  const [adding, setAdding] = useState<WizardSupplier | null>(null);
  const [opened, setOpened] = useState(false);
  const active = (approved.data?.items ?? []).filter((r) => r.isActive);

  const add = (supplier: SupplierSummary) => {
    setAdding({
      bpNumber: supplier.bpNumber,
      name: supplier.name,
      city: supplier.city,
      requiredOnboardingForm: supplier.requiredOnboardingForm,
    });
    setOpened(true);
  };

  return (
    <Stack gap="xl">
      <section aria-labelledby="home-my-suppliers" data-testid="home-my-suppliers">
        <Group justify="space-between" align="baseline" mb="md">
          <Title order={2} id="home-my-suppliers">
            Meine Lieferanten
          </Title>
          <Anchor component={Link} to="/meine-lieferanten" size="sm">
            Alle Lieferanten verwalten
          </Anchor>
        </Group>
        {approved.isPending ? (
          <Center py="md">
            <Loader size="sm" aria-label="Wird geladen" />
          </Center>
        ) : approved.isError ? (
          <Alert color="red" variant="light">
            Ihre Lieferanten konnten nicht geladen werden.
          </Alert>
        ) : active.length === 0 ? (
          <Text c="dimmed">
            Sie haben noch keine freigegebenen Lieferanten. Fügen Sie unten einen Lieferanten hinzu.
          </Text>
        ) : (
          <SupplierCardGrid relations={active} withStatus={false} />
        )}
      </section>

      {(without.data?.length ?? 0) > 0 && (
        <section aria-labelledby="home-further-suppliers" data-testid="home-further-suppliers">
          <Title order={2} id="home-further-suppliers" mb={4}>
            Weitere Lieferanten
          </Title>
          <Text size="sm" c="dimmed" mb="md">
            Lieferanten ohne aktive Geschäftsbeziehung – fragen Sie eine Freigabe an, um dort zu bestellen.
          </Text>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 4 }} spacing="md">
            {without.data!.map((supplier) => (
              <Card
                key={supplier.bpNumber}
                withBorder
                radius="md"
                padding="md"
                component="article"
                aria-label={supplier.name}
              >
                <Stack gap="xs" h="100%" justify="space-between">
                  <Stack gap={2}>
                    <Text fw={700} lh={1.3}>
                      {supplier.name}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {[supplier.bpNumber, supplier.city].filter(Boolean).join(' · ')}
                    </Text>
                  </Stack>
                  <Button
                    variant="light"
                    size="xs"
                    onClick={() => add(supplier)}
                    aria-label={`${supplier.name} hinzufügen`}
                  >
                    Hinzufügen
                  </Button>
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
        </section>
      )}

      {/* Mounted from the first opening on (closing animates). */}
      {adding && (
        <Suspense fallback={null}>
          <AddSupplierDialog opened={opened} onClose={() => setOpened(false)} initialSupplier={adding} origin="home" />
        </Suspense>
      )}
    </Stack>
  );
}
