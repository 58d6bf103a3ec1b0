import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import {
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../ui/zod-german';
import { z } from 'zod';
import { relationMessages, relationRequestFields, timings } from '@shk/contracts';
import { useRelations, useRequestRelation, useSuppliersWithoutRelation } from '../../api/relations';
import { ApiError } from '../../api/problem';
import { useUserProfile } from '../../api/session';
import { RelationStatusBadge } from '../../ui/relation-status';
import { SearchIcon } from '../../ui/icons';
import { toast } from '../../ui/toast';
import { OnboardingFormButton, SupplierInfoContent } from './SupplierInfo';

/** The supplier a request goes to (from the list, the home page or a rejected relation). */
export interface WizardSupplier {
  bpNumber: string;
  name: string;
  city?: string | null;
  requiredOnboardingForm: boolean;
}

type Step = 'list' | 'supplierDetail' | 'form' | 'confirmation' | 'unsuccessful';

const stepTitles: Record<Step, string> = {
  list: 'Lieferant auswählen',
  supplierDetail: 'Lieferantendetails',
  form: 'Partnerschaft wählen',
  confirmation: 'Bestätigung',
  unsuccessful: 'Anfrage nicht übermittelt',
};
const stepNumber: Record<Step, number> = { list: 1, supplierDetail: 1, form: 2, confirmation: 3, unsuccessful: 3 };

type Mode = 'number' | 'contact';

const RequestForm = z
  .object({
    mode: z.enum(['number', 'contact']),
    supplierCustomerNumber: z.string(),
    contactName: z.string(),
    contactEmail: z.string(),
    contactPhone: relationRequestFields.contactPhone,
    message: relationRequestFields.message,
  })
  .superRefine((value, ctx) => {
    // Only the chosen way is checked: the customer number, or contact name and e-mail.
    const fields =
      value.mode === 'number' ? (['supplierCustomerNumber'] as const) : (['contactName', 'contactEmail'] as const);
    for (const field of fields) {
      const result = relationRequestFields[field].safeParse(value[field]);
      if (!result.success) ctx.addIssue({ code: 'custom', path: [field], message: result.error.issues[0].message });
    }
  });
type RequestForm = z.infer<typeof RequestForm>;

interface AddSupplierDialogProps {
  opened: boolean;
  onClose: () => void;
  /** Starts at the relationship form for this supplier (home page, 'Neu anfragen'). */
  initialSupplier?: WizardSupplier | null;
  /** Prefills the customer number (request again after a rejection). */
  initialCustomerNumber?: string | null;
  /** On the home page a failure additionally shows 'Fehler beim Hinzufügen des Lieferanten'. */
  origin?: 'suppliers' | 'home';
}

interface ListEntry extends WizardSupplier {
  statusId: number | null;
}

/**
 * The add-supplier wizard (spec §2 'My suppliers'): supplier list → relationship form → confirmation
 * (after 201) or the unsuccessful step with the server's error title. Back from the unsuccessful step
 * returns to the form, back from the form to the list. Suppliers that already have a status are shown
 * disabled. A request without customer number closes the dialog (status 'Kundennummer angefragt').
 * After closing, the dialog resets after 500 ms.
 */
export function AddSupplierDialog({
  opened,
  onClose,
  initialSupplier = null,
  initialCustomerNumber = null,
  origin = 'suppliers',
}: AddSupplierDialogProps) {
  const profile = useUserProfile();
  const [step, setStep] = useState<Step>('list');
  const [selected, setSelected] = useState<WizardSupplier | null>(null);
  const [detail, setDetail] = useState<ListEntry | null>(null);
  const [filter, setFilter] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [confirmedName, setConfirmedName] = useState('');
  const resetTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const request = useRequestRelation();
  const fixedSupplier = initialSupplier !== null;

  const defaults = (): RequestForm => ({
    mode: 'number',
    supplierCustomerNumber: initialCustomerNumber ?? '',
    contactName: profile.data ? `${profile.data.firstName} ${profile.data.lastName}`.trim() : '',
    contactEmail: profile.data?.email ?? '',
    contactPhone: '',
    message: '',
  });
  const form = useForm<RequestForm>({
    resolver: zodResolver(RequestForm),
    mode: 'onTouched',
    defaultValues: defaults(),
  });

  const reset = () => {
    setStep('list');
    setSelected(null);
    setDetail(null);
    setFilter('');
    setFailure(null);
    form.reset(defaults());
    request.reset();
  };

  // Opening: cancel a pending reset; with a given supplier start at the form.
  useEffect(() => {
    if (!opened) return;
    if (resetTimer.current) {
      clearTimeout(resetTimer.current);
      resetTimer.current = null;
      reset();
    }
    if (initialSupplier) {
      setSelected(initialSupplier);
      setStep('form');
      form.reset(defaults());
    }
  }, [opened, initialSupplier?.bpNumber]);

  useEffect(
    () => () => {
      if (resetTimer.current) clearTimeout(resetTimer.current);
    },
    [],
  );

  const close = () => {
    onClose();
    if (resetTimer.current) clearTimeout(resetTimer.current);
    resetTimer.current = setTimeout(() => {
      resetTimer.current = null;
      reset();
    }, timings.supplierDialogResetMs);
  };

  const choose = (supplier: WizardSupplier) => {
    setSelected(supplier);
    form.reset({ ...defaults(), mode: form.getValues('mode') });
    setStep('form');
  };

  const submit = form.handleSubmit(async (values) => {
    if (!selected) return;
    const withNumber = values.mode === 'number';
    const body = withNumber
      ? { supplierBpNumber: selected.bpNumber, supplierCustomerNumber: values.supplierCustomerNumber.trim() }
      : {
          supplierBpNumber: selected.bpNumber,
          contactName: values.contactName.trim(),
          contactEmail: values.contactEmail.trim(),
          contactPhone: values.contactPhone.trim() || null,
          message: values.message.trim() || null,
        };
    try {
      const supplier = await request.mutateAsync(body);
      const name = supplier?.name ?? selected.name;
      if (withNumber) {
        setConfirmedName(name);
        setStep('confirmation');
      } else {
        // Without a customer number the supplier gets in touch; the dialog closes.
        toast.success(relationMessages.requestSuccess(name));
        close();
      }
    } catch (error) {
      const title = error instanceof ApiError ? (error.problem?.title ?? null) : null;
      setFailure(title);
      setStep('unsuccessful');
      if (origin === 'home') toast.error(relationMessages.addSupplierFailure);
    }
  });

  return (
    <Modal opened={opened} onClose={close} title="Lieferanten hinzufügen" size="lg" centered>
      <Text
        size="sm"
        c="dimmed"
        mb="md"
        data-testid="wizard-step"
      >{`Schritt ${stepNumber[step]} von 3 · ${stepTitles[step]}`}</Text>
      {step === 'list' && (
        <SupplierListStep
          active={opened}
          filter={filter}
          onFilter={setFilter}
          onChoose={choose}
          onDetail={(entry) => {
            setDetail(entry);
            setStep('supplierDetail');
          }}
          onCancel={close}
        />
      )}

      {step === 'supplierDetail' && detail && (
        <Stack gap="md">
          <Text fw={600}>{detail.name}</Text>
          <SupplierInfoContent bpNumber={detail.bpNumber} />
          <Group justify="space-between">
            <Button variant="default" onClick={() => setStep('list')}>
              Zurück
            </Button>
            <Button disabled={detail.statusId !== null} onClick={() => choose(detail)}>
              Auswählen
            </Button>
          </Group>
        </Stack>
      )}

      {step === 'form' && selected && (
        <RequestFormStep
          form={form}
          selected={selected}
          onSubmit={(event) => void submit(event)}
          back={
            fixedSupplier && initialCustomerNumber !== null ? (
              <Button variant="default" onClick={close}>
                Abbrechen
              </Button>
            ) : (
              <Button variant="default" onClick={() => setStep('list')}>
                Zurück
              </Button>
            )
          }
          pending={request.isPending}
        />
      )}

      {step === 'confirmation' && (
        <Stack gap="md">
          <Alert color="green" variant="light" title="Anfrage übermittelt" role="status">
            {relationMessages.requestSuccess(confirmedName)}
          </Alert>
          <Text size="sm" c="dimmed">
            Sobald der Lieferant Ihre Kundennummer bestätigt hat, können Sie bei ihm bestellen.
          </Text>
          <Group justify="flex-end">
            <Button onClick={close}>Schließen</Button>
          </Group>
        </Stack>
      )}

      {step === 'unsuccessful' && (
        <Stack gap="md">
          <Alert color="red" variant="light" title={failure ?? relationMessages.requestFailure} role="alert">
            {failure ? relationMessages.requestFailure : null}
          </Alert>
          <Group justify="space-between">
            <Button variant="default" onClick={() => setStep('form')}>
              Zurück
            </Button>
            <Button variant="default" onClick={close}>
              Schließen
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** The relationship request for the chosen supplier: with the customer number, or contact details for a new customer. */
function RequestFormStep({
  form,
  selected,
  onSubmit,
  back,
  pending,
}: {
  form: UseFormReturn<RequestForm>;
  selected: WizardSupplier;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** 'Zurück' to the list, or 'Abbrechen' when the dialog was opened for one supplier and customer number. */
  back: ReactNode;
  pending: boolean;
}) {
  const profile = useUserProfile();
  const mode = form.watch('mode');
  const { errors } = form.formState;
  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="md">
        <Paper withBorder p="sm" radius="sm">
          <Text size="xs" c="dimmed">
            Lieferant
          </Text>
          <Text fw={600} data-testid="wizard-supplier">
            {selected.name}
          </Text>
          <Text size="sm" c="dimmed">
            {[selected.bpNumber, selected.city].filter(Boolean).join(' · ')}
          </Text>
        </Paper>
        {profile.data?.currentBpNumber && (
          <Paper withBorder p="sm" radius="sm">
            <Text size="xs" c="dimmed">
              Anfrage für Ihren Geschäftspartner
            </Text>
            <Text fw={600}>{profile.data.currentBpName ?? profile.data.currentBpNumber}</Text>
            <Text size="sm" c="dimmed">{`Geschäftspartnernummer ${profile.data.currentBpNumber}`}</Text>
          </Paper>
        )}
        {selected.requiredOnboardingForm && (
          <Alert variant="light" color="yellow" title="Neukundenformular erforderlich">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">
                Bitte füllen Sie das Neukundenformular des Lieferanten aus und senden Sie es ihm zu.
              </Text>
              <OnboardingFormButton bpNumber={selected.bpNumber} />
            </Stack>
          </Alert>
        )}
        <SegmentedControl
          fullWidth
          value={mode}
          onChange={(value) => form.setValue('mode', value as Mode, { shouldValidate: false })}
          data={[
            { value: 'number', label: 'Ich bin bereits Kunde' },
            { value: 'contact', label: 'Ich bin Neukunde' },
          ]}
          aria-label="Partnerschaft"
        />
        {mode === 'number' ? (
          <TextInput
            label="Kundennummer"
            description="Ihre Kundennummer bei diesem Lieferanten"
            withAsterisk
            error={errors.supplierCustomerNumber?.message}
            {...form.register('supplierCustomerNumber')}
          />
        ) : (
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              Ohne Kundennummer bitten wir den Lieferanten, sich bei Ihnen zu melden und Ihnen Ihre Kundennummer
              mitzuteilen.
            </Text>
            <TextInput
              label="Name"
              withAsterisk
              error={errors.contactName?.message}
              {...form.register('contactName')}
            />
            <TextInput
              label="E-Mail"
              type="email"
              withAsterisk
              error={errors.contactEmail?.message}
              {...form.register('contactEmail')}
            />
            <TextInput
              label="Telefon"
              type="tel"
              error={errors.contactPhone?.message}
              {...form.register('contactPhone')}
            />
            <Textarea
              label="Nachricht"
              autosize
              minRows={3}
              maxRows={8}
              error={errors.message?.message}
              {...form.register('message')}
            />
          </Stack>
        )}
        <Group justify="space-between">
          {back}
          <Button type="submit" loading={pending}>
            Anfrage senden
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface SupplierListStepProps {
  active: boolean;
  filter: string;
  onFilter: (value: string) => void;
  onChoose: (supplier: WizardSupplier) => void;
  onDetail: (entry: ListEntry) => void;
  onCancel: () => void;
}

/** Every supplier: those without a relation can be chosen, those with a status are shown disabled. */
function SupplierListStep({ active, filter, onFilter, onChoose, onDetail, onCancel }: SupplierListStepProps) {
  const without = useSuppliersWithoutRelation({ enabled: active });
  const relations = useRelations({ statusIds: [], name: '' }, { enabled: active });

  const entries = useMemo<ListEntry[]>(() => {
    const list: ListEntry[] = [
      ...(without.data ?? []).map((s) => ({
        bpNumber: s.bpNumber,
        name: s.name,
        city: s.city,
        requiredOnboardingForm: s.requiredOnboardingForm,
        statusId: null,
      })),
      ...(relations.data?.items ?? []).map((r) => ({
        bpNumber: r.supplier.bpNumber,
        name: r.supplier.name,
        city: r.supplier.address.city,
        requiredOnboardingForm: r.supplier.requiredOnboardingForm,
        statusId: r.relationStatusId,
      })),
    ];
    return list.sort((a, b) => a.name.localeCompare(b.name, 'de'));
  }, [without.data, relations.data]);

  // Client-side search: case-insensitive substring on the company name (spec §5), also the number.
  const needle = filter.trim().toLocaleLowerCase('de');
  const visible = needle
    ? entries.filter((e) => e.name.toLocaleLowerCase('de').includes(needle) || e.bpNumber.includes(needle))
    : entries;

  const loading = without.isPending || relations.isPending;
  return (
    <Stack gap="md">
      <TextInput
        type="search"
        label="Lieferant suchen"
        placeholder="Name oder Lieferantennummer"
        value={filter}
        onChange={(event) => onFilter(event.currentTarget.value)}
        leftSection={<SearchIcon size={16} />}
        data-autofocus
      />
      {loading ? (
        <Center py="lg">
          <Loader size="sm" aria-label="Wird geladen" />
        </Center>
      ) : without.isError || relations.isError ? (
        <Alert color="red" variant="light">
          Die Lieferanten konnten nicht geladen werden.
        </Alert>
      ) : visible.length === 0 ? (
        <Text c="dimmed" ta="center" py="md">
          {relationMessages.noResults}
        </Text>
      ) : (
        <Stack gap="xs" role="list" aria-label="Lieferanten" mah={420} style={{ overflowY: 'auto' }}>
          {visible.map((entry) => (
            <Paper
              key={entry.bpNumber}
              withBorder
              p="sm"
              radius="sm"
              role="listitem"
              data-disabled={entry.statusId !== null || undefined}
              data-testid="wizard-supplier-option"
              bg={entry.statusId !== null ? 'var(--mantine-color-gray-0)' : undefined}
            >
              <Group justify="space-between" wrap="wrap" gap="sm">
                <Stack gap={2} style={{ flex: '1 1 220px', minWidth: 0 }}>
                  <Text fw={600} c={entry.statusId !== null ? 'dimmed' : undefined}>
                    {entry.name}
                  </Text>
                  <Group gap="xs">
                    <Text size="xs" c="dimmed">
                      {[entry.bpNumber, entry.city].filter(Boolean).join(' · ')}
                    </Text>
                    {entry.statusId !== null && <RelationStatusBadge statusId={entry.statusId} size="xs" />}
                    {entry.requiredOnboardingForm && entry.statusId === null && (
                      <Badge size="xs" variant="outline" color="yellow" tt="none">
                        Neukundenformular
                      </Badge>
                    )}
                  </Group>
                </Stack>
                <Group gap="xs" wrap="nowrap" ml="auto">
                  <Button
                    variant="subtle"
                    size="xs"
                    onClick={() => onDetail(entry)}
                    aria-label={`Details zu ${entry.name}`}
                  >
                    Details
                  </Button>
                  <Button
                    size="xs"
                    disabled={entry.statusId !== null}
                    onClick={() => onChoose(entry)}
                    aria-label={`${entry.name} auswählen`}
                  >
                    Auswählen
                  </Button>
                </Group>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Abbrechen
        </Button>
      </Group>
    </Stack>
  );
}
