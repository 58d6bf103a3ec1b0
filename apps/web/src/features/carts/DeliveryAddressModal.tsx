import { useEffect, useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Radio,
  ScrollArea,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm, Controller } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../ui/zod-german';
import type { z } from 'zod';
import { cartMessages, DeliveryAddressInput, deliveryCountries, timings } from '@shk/contracts';
import { cartKeys, cartsApi, useDeliveryAddresses, type DeliveryAddress } from '../../api/carts';
import { ApiError, problemTitle } from '../../api/problem';
import { queryKeys } from '../../api/query-keys';
import { useUserProfile } from '../../api/session';
import { formatCountry } from '../../ui/format';
import { toast } from '../../ui/toast';
import { TrashIcon } from '../../ui/icons';
import { addressLines } from '../../ui/address';
import { PencilIcon } from './icons';

type FormInput = z.input<typeof DeliveryAddressInput>;
type FormOutput = z.output<typeof DeliveryAddressInput>;

const emptyAddress: FormInput = {
  companyName: '',
  contactPerson: '',
  additionalInfo: '',
  streetName: '',
  houseNumber: '',
  postalCode: '',
  city: '',
  phoneNumber: '',
  countryCode: 'DE',
};

const countryOptions = [...deliveryCountries]
  .map((code) => ({ value: code, label: formatCountry(code) }))
  .sort((a, b) => a.label.localeCompare(b.label, 'de'));

function useInvalidateAddresses() {
  const queryClient = useQueryClient();
  const bpNumber = useUserProfile().data?.currentBpNumber ?? null;
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.partnerScoped(bpNumber, ...cartKeys.addresses) });
}

/** The address fields of the spec (§3) with its required fields and allowed countries (§5). */
function AddressForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: FormInput;
  submitLabel: string;
  onSubmit: (values: FormOutput) => Promise<void>;
  onCancel?: () => void;
}) {
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(DeliveryAddressInput),
    mode: 'onChange',
    defaultValues: initial,
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(async (values) => onSubmit(values).catch(() => {}))}
      data-testid="address-form"
    >
      <Stack gap="sm">
        <TextInput
          label="Firma bzw. Name"
          withAsterisk
          error={errors.companyName?.message}
          {...form.register('companyName')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label="Ansprechpartner"
            error={errors.contactPerson?.message}
            {...form.register('contactPerson')}
          />
          <TextInput label="Adresszusatz" error={errors.additionalInfo?.message} {...form.register('additionalInfo')} />
        </SimpleGrid>
        <Group grow align="flex-start" gap="sm" wrap="nowrap">
          <TextInput
            label="Straße"
            withAsterisk
            error={errors.streetName?.message}
            {...form.register('streetName')}
            style={{ flexGrow: 3 }}
          />
          <TextInput
            label="Hausnummer"
            withAsterisk
            error={errors.houseNumber?.message}
            {...form.register('houseNumber')}
          />
        </Group>
        <Group grow align="flex-start" gap="sm" wrap="nowrap">
          <TextInput
            label="Postleitzahl"
            withAsterisk
            error={errors.postalCode?.message}
            {...form.register('postalCode')}
          />
          <TextInput
            label="Ort"
            withAsterisk
            error={errors.city?.message}
            {...form.register('city')}
            style={{ flexGrow: 3 }}
          />
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Controller
            control={form.control}
            name="countryCode"
            render={({ field }) => (
              <Select
                label="Land"
                withAsterisk
                data={countryOptions}
                value={field.value ?? 'DE'}
                onChange={(value) => field.onChange(value ?? 'DE')}
                allowDeselect={false}
                searchable
                comboboxProps={{ withinPortal: true }}
                error={errors.countryCode?.message}
              />
            )}
          />
          <TextInput label="Telefon" type="tel" error={errors.phoneNumber?.message} {...form.register('phoneNumber')} />
        </SimpleGrid>
        <Group justify="flex-end" gap="sm" mt="xs">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              Abbrechen
            </Button>
          )}
          <Button type="submit" loading={isSubmitting} disabled={isSubmitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const toInput = (address: DeliveryAddress): FormInput => ({
  companyName: address.companyName,
  contactPerson: address.contactPerson ?? '',
  additionalInfo: address.additionalInfo ?? '',
  streetName: address.streetName,
  houseNumber: address.houseNumber,
  postalCode: address.postalCode,
  city: address.city,
  phoneNumber: address.phoneNumber ?? '',
  countryCode: address.countryCode as FormInput['countryCode'],
});

const toBody = (values: FormOutput) => ({
  ...values,
  contactPerson: values.contactPerson || null,
  additionalInfo: values.additionalInfo || null,
  phoneNumber: values.phoneNumber || null,
});

interface DeliveryAddressModalProps {
  opened: boolean;
  onClose: () => void;
  /** The address in use (the registered address when the cart has none). */
  selectedId: number | null;
  onSelect: (addressId: number) => void;
}

/**
 * Delivery address modal (spec §2): tab 'Gespeicherte Adressen' to choose, edit or delete (with
 * confirmation) a saved address, tab 'Neue Adresse' to create one. Read-only addresses cannot be changed.
 */
export function DeliveryAddressModal({ opened, onClose, selectedId, onSelect }: DeliveryAddressModalProps) {
  const addresses = useDeliveryAddresses();
  const invalidate = useInvalidateAddresses();
  const [tab, setTab] = useState<string | null>('saved');
  const [choice, setChoice] = useState<string | null>(selectedId ? String(selectedId) : null);
  const [editing, setEditing] = useState<DeliveryAddress | null>(null);
  const [deleting, setDeleting] = useState<DeliveryAddress | null>(null);

  useEffect(() => {
    if (!opened) return;
    setTab('saved');
    setEditing(null);
    setDeleting(null);
    setChoice(selectedId ? String(selectedId) : null);
  }, [opened, selectedId]);

  const create = useMutation({
    mutationFn: (values: FormOutput) => cartsApi.createAddress(toBody(values)),
    onSuccess: async (address) => {
      await invalidate();
      onSelect(address.id);
      onClose();
    },
    onError: () => toast.error(cartMessages.addressFailure('angelegt')),
  });
  const update = useMutation({
    mutationFn: ({ id, values }: { id: number; values: FormOutput }) => cartsApi.updateAddress(id, toBody(values)),
    onSuccess: async () => {
      await invalidate();
      setEditing(null);
    },
    onError: () => toast.error(cartMessages.addressFailure('geändert')),
  });
  const remove = useMutation({
    mutationFn: (address: DeliveryAddress) => cartsApi.removeAddress(address.id),
    onSuccess: async (_, address) => {
      await invalidate();
      setDeleting(null);
      if (choice === String(address.id)) setChoice(null);
    },
    onError: (error) => {
      // A 400 carries the server's reason (e.g. a read-only address); anything else the generic text.
      toast.error(
        error instanceof ApiError && error.status === 400
          ? problemTitle(error, cartMessages.addressFailure('gelöscht'))
          : cartMessages.addressFailure('gelöscht'),
      );
    },
  });

  const list = addresses.data ?? [];

  let savedContent;
  if (editing) {
    savedContent = (
      <Stack gap="sm">
        <Text fw={600}>Adresse bearbeiten</Text>
        <AddressForm
          key={editing.id}
          initial={toInput(editing)}
          submitLabel="Speichern"
          onSubmit={(values) => update.mutateAsync({ id: editing.id, values }).then(() => {})}
          onCancel={() => setEditing(null)}
        />
      </Stack>
    );
  } else if (deleting) {
    savedContent = (
      <Stack gap="md" data-testid="address-delete-confirmation">
        <Text fw={600}>Adresse löschen?</Text>
        <Paper withBorder p="sm" radius="sm">
          {addressLines(deleting).map((line) => (
            <Text key={line} size="sm">
              {line}
            </Text>
          ))}
        </Paper>
        <Text size="sm">Möchten Sie diese Lieferadresse wirklich löschen?</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => setDeleting(null)}>
            Abbrechen
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(deleting)}>
            Löschen
          </Button>
        </Group>
      </Stack>
    );
  } else {
    savedContent = (
      <Stack gap="md">
        <ScrollArea.Autosize mah="50vh" type="auto" offsetScrollbars>
          <Radio.Group value={choice} onChange={setChoice} name="delivery-address" aria-label="Gespeicherte Adressen">
            <Stack gap="xs">
              {list.map((address) => (
                <Paper key={address.id} withBorder p="sm" radius="sm" data-testid="saved-address">
                  <Group justify="space-between" align="flex-start" wrap="nowrap">
                    <Radio
                      value={String(address.id)}
                      aria-label={address.companyName}
                      label={
                        <Stack gap={0}>
                          {addressLines(address).map((line, index) => (
                            <Text key={line} size="sm" fw={index === 0 ? 600 : 400}>
                              {line}
                            </Text>
                          ))}
                        </Stack>
                      }
                    />
                    {address.isReadOnly ? (
                      <Badge variant="light" color="gray">
                        Firmenadresse
                      </Badge>
                    ) : (
                      <Group gap={4} wrap="nowrap">
                        <Tooltip label="Bearbeiten">
                          <ActionIcon
                            variant="subtle"
                            aria-label={`Adresse ${address.companyName} bearbeiten`}
                            onClick={() => setEditing(address)}
                          >
                            <PencilIcon />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label="Löschen">
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Adresse ${address.companyName} löschen`}
                            onClick={() => setDeleting(address)}
                          >
                            <TrashIcon size={16} />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    )}
                  </Group>
                </Paper>
              ))}
              {list.length === 0 && (
                <Text c="dimmed" size="sm">
                  Noch keine Adressen gespeichert.
                </Text>
              )}
            </Stack>
          </Radio.Group>
        </ScrollArea.Autosize>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Abbrechen
          </Button>
          <Button
            disabled={!choice}
            onClick={() => {
              if (!choice) return;
              onSelect(Number(choice));
              onClose();
            }}
          >
            Übernehmen
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Lieferadresse"
      size="lg"
      centered
      transitionProps={{ duration: timings.modalFadeMs }}
    >
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="saved">Gespeicherte Adressen</Tabs.Tab>
          <Tabs.Tab value="new">Neue Adresse</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="saved">{savedContent}</Tabs.Panel>
        <Tabs.Panel value="new">
          <AddressForm
            initial={emptyAddress}
            submitLabel="Adresse speichern und verwenden"
            onSubmit={(values) => create.mutateAsync(values).then(() => {})}
            onCancel={onClose}
          />
        </Tabs.Panel>
      </Tabs>
    </Modal>
  );
}
