import { useState } from 'react';
import { Alert, Badge, Button, Card, Code, Group, NumberInput, Select, Stack, Table, Text, Title } from '@mantine/core';
import { Navigate, useNavigate } from 'react-router';
import { idsMatchHints, idsMessages } from '@shk/contracts';
import { useIdsCartActions, useIdsContext, type IdsCartItem } from '../../api/ids';
import { problemTitle } from '../../api/problem';
import { unitPlainText } from '../../ui/catalogue/units';
import { FullPageLoader } from '../../ui/FullPageLoader';
import { Page } from '../../ui/Page';
import { toast } from '../../ui/toast';

type State = NonNullable<IdsCartItem['matchResult']>;

/** Spec order of the groups: supplier not matched, quantity not matched, no relationship, not found, matched. */
const groups: { state: State; title: string; color: string }[] = [
  { state: 'SupplierNotMatched', title: 'Lieferant nicht zugeordnet', color: 'orange' },
  { state: 'QuantityNotMatched', title: 'Menge nicht zugeordnet', color: 'orange' },
  { state: 'SupplierRelationshipNotMatched', title: 'Keine Geschäftsbeziehung', color: 'yellow' },
  { state: 'NotMatched', title: 'Nicht gefunden', color: 'red' },
  { state: 'Matched', title: 'Zugeordnet', color: 'green' },
];

/** /ids-warenkorb: step 1 of 2, matching the program's positions to the portal's offers. */
export default function IdsPreCartPage() {
  const { contextId, cart, action, loading } = useIdsContext();
  const navigate = useNavigate();
  if (loading) return <FullPageLoader />;
  if (!contextId || !cart.data || action !== 'wks') return <Navigate to="/" replace />;
  return <PreCart contextId={contextId} items={cart.data.items} onDone={() => navigate('/warenkorb')} />;
}

function PreCart({ contextId, items, onDone }: { contextId: string; items: IdsCartItem[]; onDone: () => void }) {
  const actions = useIdsCartActions(contextId);
  const live = items.filter((i) => !i.isDeleted);
  const blocked = live.some((i) => i.matchResult === 'SupplierNotMatched' || i.matchResult === 'QuantityNotMatched');
  const next = async () => {
    try {
      await actions.moveToCart.mutateAsync();
      toast.success(idsMessages.success);
      onDone();
    } catch (error) {
      toast.error(problemTitle(error, idsMessages.sendFailed));
    }
  };
  return (
    <Page title="IDS-Warenkorb">
      <Stack gap="lg">
        <Group justify="space-between">
          <Text c="dimmed" data-testid="ids-step">
            Schritt 1 von 2: Artikel zuordnen
          </Text>
          <Button
            onClick={() => void next()}
            disabled={blocked}
            loading={actions.moveToCart.isPending}
            data-testid="ids-next"
          >
            Weiter zu Schritt 2
          </Button>
        </Group>
        {blocked && (
          <Alert color="orange" variant="light">
            {idsMessages.notReady}
          </Alert>
        )}
        {groups.map((g) => {
          const groupItems = live.filter((i) => i.matchResult === g.state);
          if (!groupItems.length) return null;
          return (
            <Card key={g.state} withBorder radius="md" padding="lg" data-testid={`ids-group-${g.state}`}>
              <Group gap="sm" mb="xs">
                <Title order={2} size="h4">
                  {g.title}
                </Title>
                <Badge color={g.color}>{groupItems.length}</Badge>
              </Group>
              <Text size="sm" c="dimmed" mb="md">
                {idsMatchHints[g.state]}
              </Text>
              <Stack gap="md">
                {groupItems.map((item) => (
                  <ItemRow key={item.id} item={item} actions={actions} />
                ))}
              </Stack>
            </Card>
          );
        })}
        {!live.length && <Alert variant="light">Der IDS-Warenkorb enthält keine Positionen.</Alert>}
      </Stack>
    </Page>
  );
}

function ItemRow({ item, actions }: { item: IdsCartItem; actions: ReturnType<typeof useIdsCartActions> }) {
  const orderable = item.supplierRelations.filter((s) => s.orderable);
  const [instance, setInstance] = useState<string | null>(
    item.matchedProductInstanceId ?? (orderable.length === 1 ? orderable[0].productInstanceId : null),
  );
  const [quantity, setQuantity] = useState<number>(item.matchedQuantity ?? item.quantity ?? 1);
  const editable =
    item.matchResult === 'SupplierNotMatched' ||
    item.matchResult === 'QuantityNotMatched' ||
    item.matchResult === 'Matched';
  const save = async () => {
    if (!instance) return;
    try {
      await actions.update.mutateAsync({ id: item.id, matchedProductInstanceId: instance, matchedQuantity: quantity });
      toast.success(idsMessages.success);
    } catch (error) {
      toast.error(problemTitle(error, idsMessages.sendFailed));
    }
  };
  const remove = async () => {
    try {
      await actions.remove.mutateAsync(item.id);
      toast.success(idsMessages.success);
    } catch (error) {
      toast.error(problemTitle(error, idsMessages.sendFailed));
    }
  };
  const min = orderable.find((s) => s.productInstanceId === instance)?.minOrderQuantity;
  return (
    <Card withBorder radius="sm" padding="sm" data-testid="ids-item" data-article={item.articleNumber ?? ''}>
      <Table variant="vertical" withRowBorders={false} layout="fixed">
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={200}>Position</Table.Th>
            <Table.Td>
              {item.positionNo} · {item.shortName ?? '–'}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Artikelnummer / GTIN</Table.Th>
            <Table.Td>
              {item.articleNumber ?? '–'} {item.gtin ? `· ${item.gtin}` : ''}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Menge laut Software</Table.Th>
            <Table.Td>
              {item.quantity ?? '–'} {unitPlainText(item.unit)}
            </Table.Td>
          </Table.Tr>
          {item.matchedArticleNumber && (
            <Table.Tr>
              <Table.Th>Zugeordnet</Table.Th>
              <Table.Td>
                {item.matchedArticleNumber} · {item.matchedSupplierBpNumber} · Menge {item.matchedQuantity}
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
      {item.matchResult === 'NotMatched' && item.rawText && !item.articleNumber && (
        <Code block mt="xs">
          {item.rawText}
        </Code>
      )}
      {item.matchResult === 'SupplierRelationshipNotMatched' && item.supplierRelations.length > 0 && (
        <Text size="sm" mt="xs">
          Erhältlich bei: {item.supplierRelations.map((s) => `${s.supplierName} (${s.supplierBpNumber})`).join(', ')} –
          Geschäftsbeziehung unter „Meine Lieferanten“ anfragen.
        </Text>
      )}
      <Group mt="sm" align="flex-end" gap="sm">
        {editable && orderable.length > 0 && (
          <Select
            label="Lieferant"
            placeholder="Lieferant wählen"
            data={orderable.map((s) => ({
              value: s.productInstanceId,
              label: `${s.supplierName} – ${s.articleNumber}`,
            }))}
            value={instance}
            onChange={setInstance}
            w={320}
            data-testid="ids-supplier"
          />
        )}
        {editable && (
          <NumberInput
            label="Menge"
            min={0}
            decimalScale={3}
            value={quantity}
            onChange={(v) => setQuantity(typeof v === 'number' ? v : Number(v) || 0)}
            description={min ? `Mindestbestellmenge ${min}` : undefined}
            w={160}
            data-testid="ids-quantity"
          />
        )}
        {editable && (
          <Button
            onClick={() => void save()}
            disabled={!instance || !(quantity > 0)}
            loading={actions.update.isPending}
            data-testid="ids-apply"
          >
            Übernehmen
          </Button>
        )}
        <Button variant="subtle" color="red" onClick={() => void remove()} data-testid="ids-delete">
          Löschen
        </Button>
      </Group>
    </Card>
  );
}
