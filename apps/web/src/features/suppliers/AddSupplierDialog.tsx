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
import { usePartnerQuery, useUserProfile } from '../../api/session';
import { profileApi } from '../../api/profile';
import type { BusinessPartner } from '../../api/types';
import { RelationStatusBadge } from '../../ui/relation-status';
import { SearchIcon } from '../../ui/icons';
import { toast } from '../../ui/toast';
import { OnboardingFormButton, SupplierInfoContent } from './SupplierInfo';
import {
  BuyerDetailStep,
  ConfirmPartnerStep,
  PartnerFormStep,
  partnerFormFrom,
  type PartnerForm,
} from './NewCustomerPartnerSteps';

/** The supplier a request goes to (from the list, the home page or a rejected relation). */
export interface WizardSupplier {
  bpNumber: string;
  name: string;
  city?: string | null;
  requiredOnboardingForm: boolean;
}

type Step =
  | 'list'
  | 'supplierDetail'
  | 'form'
  | 'buyerDetail'
  | 'addPartner'
  | 'editPartner'
  | 'confirmPartner'
  | 'confirmation'
  | 'unsuccessful';

const stepTitles: Record<Step, string> = {
  list: 'Lieferant auswählen',
  supplierDetail: 'Lieferantendetails',
  form: 'Partnerschaft wählen',
  buyerDetail: 'Käuferdetails',
  addPartner: 'Geschäftspartner hinzufügen',
  editPartner: 'Geschäftspartner bearbeiten',
  confirmPartner: 'Geschäftspartner bestätigen',
  confirmation: 'Bestätigung',
  unsuccessful: 'Anfrage nicht übermittelt',
};
/**
 * 'Schritt n von m': with a customer number three steps (list, partnership, confirmation); as a new customer five
 * (list, partnership, buyer detail, the company data, their confirmation; the dialog closes after sending).
 */
const stepNumber: Record<Step, number> = {
  list: 1,
  supplierDetail: 1,
  form: 2,
  buyerDetail: 3,
  addPartner: 4,
  editPartner: 4,
  confirmPartner: 5,
  confirmation: 3,
  unsuccessful: 3,
};
const stepLabel = (step: Step, mode: Mode) => {
  const total = mode === 'contact' ? 5 : 3;
  const number = step === 'unsuccessful' ? total : stepNumber[step];
  return `Schritt ${number} von ${total} · ${stepTitles[step]}`;
};

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
  /** The company data added (and maybe edited) in the business-partner steps; null until added. */
  const [partnerData, setPartnerData] = useState<PartnerForm | null>(null);
  // The buyer's company, for the buyer detail and as the company data's prefill (the profile page reads the same).
  const currentPartner = usePartnerQuery<BusinessPartner>(
    ['businessPartners', 'current'],
    profileApi.currentBusinessPartner,
    { enabled: opened },
  );
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
    setPartnerData(null);
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
    setPartnerData(null);
    form.reset({ ...defaults(), mode: form.getValues('mode') });
    setStep('form');
  };

  // With a customer number the form sends the request; as a new customer it leads to the business-partner steps.
  const submit = form.handleSubmit(async (values) => {
    if (values.mode === 'contact') setStep('buyerDetail');
    else await send(values, null);
  });

  const send = async (values: RequestForm, partner: PartnerForm | null) => {
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
          newCustomerPartner: partner,
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
  };

  return (
    <Modal opened={opened} onClose={close} title="Lieferanten hinzufügen" size="lg" centered>
      <Text size="sm" c="dimmed" mb="md" data-testid="wizard-step">
        {stepLabel(step, form.watch('mode'))}
      </Text>
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
        <SupplierDetailStep detail={detail} onBack={() => setStep('list')} onChoose={() => choose(detail)} />
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

      {step === 'buyerDetail' && (
        <BuyerDetailStep
          partner={currentPartner.data}
          loading={currentPartner.isPending}
          contact={{
            name: form.getValues('contactName'),
            email: form.getValues('contactEmail'),
            phone: form.getValues('contactPhone'),
          }}
          onBack={() => setStep('form')}
          onNext={() => setStep(partnerData ? 'confirmPartner' : 'addPartner')}
        />
      )}

      {(step === 'addPartner' || step === 'editPartner') && (
        <PartnerFormStep
          key={step}
          mode={step === 'addPartner' ? 'add' : 'edit'}
          initial={partnerData ?? partnerFormFrom(currentPartner.data)}
          onBack={() => setStep(step === 'addPartner' ? 'buyerDetail' : 'confirmPartner')}
          onDone={(values) => {
            setPartnerData(values);
            setStep('confirmPartner');
          }}
        />
      )}

      {step === 'confirmPartner' && partnerData && (
        <ConfirmPartnerStep
          values={partnerData}
          onEdit={() => setStep('editPartner')}
          onSend={() => void send(form.getValues(), partnerData)}
          pending={request.isPending}
        />
      )}

      {step === 'confirmation' && <ConfirmationStep name={confirmedName} onClose={close} />}

      {step === 'unsuccessful' && <UnsuccessfulStep failure={failure} onBack={() => setStep('form')} onClose={close} />}
    </Modal>
  );
}

function SupplierDetailStep({
  detail,
  onBack,
  onChoose,
}: {
  detail: ListEntry;
  onBack: () => void;
  onChoose: () => void;
}) {
  return (
    <Stack gap="md">
      <Text fw={600}>{detail.name}</Text>
      <SupplierInfoContent bpNumber={detail.bpNumber} />
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          Zurück
        </Button>
        <Button disabled={detail.statusId !== null} onClick={onChoose}>
          Auswählen
        </Button>
      </Group>
    </Stack>
  );
}

function ConfirmationStep({ name, onClose }: { name: string; onClose: () => void }) {
  return (
    <Stack gap="md">
      <Alert color="green" variant="light" title="Anfrage übermittelt" role="status">
        {relationMessages.requestSuccess(name)}
      </Alert>
      <Text size="sm" c="dimmed">
        Sobald der Lieferant Ihre Kundennummer bestätigt hat, können Sie bei ihm bestellen.
      </Text>
      <Group justify="flex-end">
        <Button onClick={onClose}>Schließen</Button>
      </Group>
    </Stack>
  );
}

/** The server's error title; back returns to the form. */
function UnsuccessfulStep({
  failure,
  onBack,
  onClose,
}: {
  failure: string | null;
  onBack: () => void;
  onClose: () => void;
}) {
  return (
    <Stack gap="md">
      <Alert color="red" variant="light" title={failure ?? relationMessages.requestFailure} role="alert">
        {failure ? relationMessages.requestFailure : null}
      </Alert>
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          Zurück
        </Button>
        <Button variant="default" onClick={onClose}>
          Schließen
        </Button>
      </Group>
    </Stack>
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
          // The two choices wrap instead of being cut at 390 px ('ch bin bereits Kunde').
          styles={{ label: { whiteSpace: 'normal', lineHeight: 1.3 } }}
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
            {mode === 'contact' ? 'Weiter' : 'Anfrage senden'}
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
