import { useState } from 'react';
import { ActionIcon, Alert, Anchor, Badge, Button, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { cartMessages, FeatureSettingKey, messages, timings } from '@shk/contracts';
import { cartMemory } from '../../api/cart-memory';
import { cartsApi, invalidateCarts, useCurrentCart, useNumberSetting, type CartOverview } from '../../api/carts';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { formatCurrency, formatDate } from '../../ui/format';
import { CheckIcon, TrashIcon } from '../../ui/icons';
import { Page } from '../../ui/Page';
import { toast } from '../../ui/toast';
import { CartNameModal } from './CartNameModal';
import { PencilIcon, PlusIcon } from './icons';
import { selectCart } from './use-cart-actions';

/** The carts' columns: name with its badges, dates and sums, and the choose, rename and delete actions. */
function cartColumns({
  currentId,
  inIdsContext,
  onChoose,
  onRename,
  onDelete,
}: {
  currentId: number | undefined;
  inIdsContext: boolean;
  onChoose: (cart: CartOverview) => void;
  onRename: (cart: CartOverview) => void;
  onDelete: (cart: CartOverview) => void;
}): DataTableColumn<CartOverview>[] {
  return [
    {
      key: 'name',
      header: 'Name',
      sortValue: (cart) => cart.name,
      render: (cart) => (
        <Group gap="xs" wrap="wrap">
          <Anchor component={Link} to={`/warenkorb/${cart.id}`} fw={600}>
            {cart.name}
          </Anchor>
          {cart.isDefault && (
            <Badge size="sm" variant="light">
              Standard
            </Badge>
          )}
          {currentId === cart.id && (
            <Badge size="sm" color="green" variant="light">
              Aktuell
            </Badge>
          )}
        </Group>
      ),
    },
    {
      key: 'created',
      header: 'Erstellt am',
      sortValue: (cart) => cart.dateCreated,
      render: (cart) => formatDate(cart.dateCreated),
      nowrap: true,
    },
    {
      key: 'count',
      header: 'Artikel',
      sortValue: (cart) => cart.itemCount,
      render: (cart) => cart.itemCount,
      nowrap: true,
    },
    {
      key: 'value',
      header: 'Warenwert (netto)',
      sortValue: (cart) => cart.totalNetValue,
      render: (cart) => formatCurrency(cart.totalNetValue),
      nowrap: true,
    },
    {
      key: 'select',
      header: 'Auswahl',
      nowrap: true,
      render: (cart) =>
        currentId === cart.id ? (
          <Group gap={4} c="var(--mantine-color-green-light-color)" wrap="nowrap">
            <CheckIcon size={16} />
            <Text size="sm">Ausgewählt</Text>
          </Group>
        ) : (
          <Button
            size="compact-sm"
            variant="light"
            onClick={() => onChoose(cart)}
            disabled={inIdsContext}
            aria-label={`Warenkorb ${cart.name} auswählen`}
          >
            Auswählen
          </Button>
        ),
    },
    {
      key: 'edit',
      header: 'Bearbeiten',

      render: (cart) => (
        <Tooltip label="Umbenennen">
          <ActionIcon variant="subtle" aria-label={`Warenkorb ${cart.name} umbenennen`} onClick={() => onRename(cart)}>
            <PencilIcon />
          </ActionIcon>
        </Tooltip>
      ),
    },
    {
      key: 'delete',
      header: 'Löschen',

      render: (cart) => (
        <Tooltip label="Löschen">
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Warenkorb ${cart.name} löschen`}
            onClick={() => onDelete(cart)}
          >
            <TrashIcon size={16} />
          </ActionIcon>
        </Tooltip>
      ),
    },
  ];
}

/**
 * /my-carts – 'Meine Warenkörbe' (spec §2): name, created date, item count, net value, edit, delete;
 * choosing a cart makes it the current one after confirmation. 'Warenkorb hinzufügen' is disabled at the
 * maximum count with the spec's tooltip.
 */
export default function MyCartsPage() {
  const queryClient = useQueryClient();
  const { carts, current, inIdsContext } = useCurrentCart();
  const maxCarts = useNumberSetting(FeatureSettingKey.MaxCartCount);
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<CartOverview | null>(null);
  const [deleting, setDeleting] = useState<CartOverview | null>(null);
  const [choosing, setChoosing] = useState<CartOverview | null>(null);

  const list = carts.data ?? [];
  const atMax = list.length >= maxCarts;
  const refresh = () => invalidateCarts(queryClient);

  const remove = useMutation({
    mutationFn: (cart: CartOverview) => cartsApi.remove(cart.id),
    onSuccess: async (_, cart) => {
      if (cartMemory.get() === String(cart.id)) cartMemory.clear();
      setDeleting(null);
      await refresh();
    },
    onError: () => toast.error(cartMessages.deleteCartFailure),
  });

  const columns = cartColumns({
    currentId: current?.id,
    inIdsContext,
    onChoose: setChoosing,
    onRename: setRenaming,
    onDelete: setDeleting,
  });

  const addButton = (
    <Tooltip label={cartMessages.maxCartsReached(maxCarts)} disabled={!atMax} withArrow>
      <Button
        leftSection={<PlusIcon />}
        data-disabled={atMax || inIdsContext || undefined}
        aria-disabled={atMax || inIdsContext || undefined}
        onClick={(event) => {
          if (atMax || inIdsContext) {
            event.preventDefault();
            return;
          }
          setCreating(true);
        }}
      >
        Warenkorb hinzufügen
      </Button>
    </Tooltip>
  );

  return (
    <Page title="Meine Warenkörbe" actions={addButton}>
      {inIdsContext && <Alert color="blue">{messages.idsMultiCartDisabled}</Alert>}
      <DataTable
        label="Meine Warenkörbe"
        columns={columns}
        rows={list}
        rowKey={(cart) => cart.id}
        loading={carts.isPending}
        emptyText="Keine Warenkörbe vorhanden"
        pageSize={0}
        minWidth={760}
        testId="my-carts"
      />
      {/* Not 'N von M Warenkörben', which read like paging: how many carts there are and how many are allowed. */}
      <Text size="sm" c="dimmed" data-testid="cart-count">
        {cartMessages.cartCount(list.length, maxCarts)}
      </Text>

      <CartNameModal
        opened={creating}
        onClose={() => setCreating(false)}
        title="Neuer Warenkorb"
        submitLabel="Warenkorb anlegen"
        onSubmit={async (name) => {
          await cartsApi.create(name);
          await refresh();
        }}
      />
      <CartNameModal
        opened={renaming !== null}
        onClose={() => setRenaming(null)}
        title="Warenkorb umbenennen"
        submitLabel="Speichern"
        initialName={renaming?.name ?? ''}
        onSubmit={async (name) => {
          await cartsApi.rename(renaming!.id, name);
          await refresh();
        }}
      />
      <Modal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Warenkorb löschen"
        centered
        transitionProps={{ duration: timings.modalFadeMs }}
      >
        <Stack gap="md">
          <Text>Möchten Sie den Warenkorb „{deleting?.name}“ mit allen Artikeln löschen?</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setDeleting(null)}>
              Abbrechen
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => deleting && remove.mutate(deleting)}>
              Löschen
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal
        opened={choosing !== null}
        onClose={() => setChoosing(null)}
        title="Warenkorb auswählen"
        centered
        transitionProps={{ duration: timings.modalFadeMs }}
      >
        <Stack gap="md">
          <Text>
            Möchten Sie „{choosing?.name}“ als aktuellen Warenkorb verwenden? Neue Artikel werden dann in diesen
            Warenkorb gelegt.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setChoosing(null)}>
              Abbrechen
            </Button>
            <Button
              onClick={() => {
                if (choosing) selectCart(choosing.id);
                setChoosing(null);
              }}
            >
              Auswählen
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Page>
  );
}
