import { useEffect } from 'react';
import { Controller, useForm, useWatch, type Control, type FieldPath, type UseFormRegister } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../ui/zod-german';
import {
  Button,
  Checkbox,
  Fieldset,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
  Textarea,
} from '@mantine/core';
import {
  CommunicationProtocol,
  limits,
  newSupplierDefaults,
  supplierStateIssues,
  supplierStatusLabels,
  communicationDataFormatLabels,
  communicationProtocolLabels,
  SupplierSettingsInput,
  workflowProtocols,
  type SupplierState,
} from '@shk/contracts';
import type { z } from 'zod';
import { ApiError } from '../../api/problem';
import { useDataFormats, useProtocols, type SupplierSettings } from '../../api/suppliers';
import { useWorkflowOptions } from '../../api/suppliers';

type FormInput = z.input<typeof SupplierSettingsInput>;
type FormOutput = z.output<typeof SupplierSettingsInput>;

const text = (v: string | null | undefined) => v ?? '';

function formValues(bp: string, s: SupplierSettings | null): FormInput {
  if (!s)
    return {
      supplierBusinessPartnerNo: bp,
      ...newSupplierDefaults,
      inboundInterface: { ...newSupplierDefaults.inboundInterface, dataFormats: [1] },
      outboundInterface: {
        ...newSupplierDefaults.outboundInterface,
        dataFormats: [1],
        emailAddress: '',
        ftpFolder: '',
        as2Identifier: '',
        as2Url: '',
      },
      contactPersonName: '',
      contactPersonPhone: '',
      contactPersonEmail: '',
      gln: '',
      headquarterGln: '',
      workflowId: null,
      supplierNote: '',
      ordersSummaryEmail: '',
      customerOnboardingEmail: '',
      newCustomerOnboardingEmail: '',
    };
  return {
    supplierBusinessPartnerNo: s.supplierBusinessPartnerNo,
    supplierStatusId: s.supplierStatusId as 1 | 2 | 3,
    requiredOnboardingForm: s.requiredOnboardingForm,
    contactPersonName: text(s.contactPersonName),
    contactPersonPhone: text(s.contactPersonPhone),
    contactPersonEmail: text(s.contactPersonEmail),
    gln: text(s.gln),
    headquarterGln: text(s.headquarterGln),
    inboundInterface: s.inboundInterface,
    outboundInterface: {
      communicationProtocolId: s.outboundInterface.communicationProtocolId,
      dataFormats: s.outboundInterface.dataFormats,
      emailAddress: text(s.outboundInterface.emailAddress),
      ftpFolder: text(s.outboundInterface.ftpFolder),
      as2Identifier: text(s.outboundInterface.as2Identifier),
      as2Url: text(s.outboundInterface.as2Url),
    },
    workflowId: s.workflowId,
    showSupplierNote: s.showSupplierNote,
    supplierNote: text(s.supplierNote),
    deliveryCost: s.deliveryCost,
    freeDeliveryThreshold: s.freeDeliveryThreshold,
    ordersSummaryEmail: text(s.ordersSummaryEmail),
    customerOnboardingEmail: text(s.customerOnboardingEmail),
    newCustomerOnboardingEmail: text(s.newCustomerOnboardingEmail),
    hideGrossPrice: s.hideGrossPrice,
    hideAdditionalInfo: s.hideAdditionalInfo,
  };
}

interface SupplierFormProps {
  bp: string;
  supplier: SupplierSettings | null;
  state: SupplierState;
  readOnly: boolean;
  saving: boolean;
  onSubmit: (values: FormOutput) => Promise<void>;
}

/** What the form's sections get: the form's control, read-only mode and the message of a field's error. */
interface SectionProps {
  control: Control<FormInput, unknown, FormOutput>;
  readOnly: boolean;
  err: (name: FieldPath<FormInput>) => string | undefined;
}

/** The supplier's status and whether it requires a new-customer form. */
function StatusFields({ control, readOnly, err }: SectionProps) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <Controller
        control={control}
        name="supplierStatusId"
        render={({ field }) => (
          <Select
            label="Status"
            data={Object.entries(supplierStatusLabels).map(([value, label]) => ({ value, label }))}
            value={String(field.value)}
            onChange={(v) => field.onChange(Number(v))}
            allowDeselect={false}
            disabled={readOnly}
            error={err('supplierStatusId')}
          />
        )}
      />
      <Controller
        control={control}
        name="requiredOnboardingForm"
        render={({ field }) => (
          <Switch
            mt="xl"
            label="Neukundenformular erforderlich"
            checked={field.value}
            onChange={(e) => field.onChange(e.currentTarget.checked)}
            error={err('requiredOnboardingForm')}
          />
        )}
      />
    </SimpleGrid>
  );
}

/** Delivery costs and the order value from which delivery is free, in euros. */
function DeliveryCostFields({ control, readOnly, err }: SectionProps) {
  return (
    <Fieldset legend="Lieferkosten">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {(['deliveryCost', 'freeDeliveryThreshold'] as const).map((name) => (
          <Controller
            key={name}
            control={control}
            name={name}
            render={({ field }) => (
              <NumberInput
                label={name === 'deliveryCost' ? 'Lieferkosten (€)' : 'Lieferkostenfrei ab (€)'}
                value={field.value}
                onChange={(v) => field.onChange(typeof v === 'number' ? v : 0)}
                decimalScale={2}
                decimalSeparator=","
                min={0}
                disabled={readOnly}
                error={err(name)}
              />
            )}
          />
        ))}
      </SimpleGrid>
    </Fieldset>
  );
}

/** What the shop shows of the supplier: its note (then required) and which prices and details it hides. */
function DisplayFields({ control, register, readOnly, err }: SectionProps & { register: UseFormRegister<FormInput> }) {
  const showNote = useWatch({ control, name: 'showSupplierNote' });
  return (
    <Fieldset legend="Anzeige">
      <Stack>
        {(
          [
            ['showSupplierNote', 'Hinweis des Lieferanten anzeigen'],
            ['hideGrossPrice', 'Bruttopreis ausblenden'],
            ['hideAdditionalInfo', 'Zusatzinformationen ausblenden'],
          ] as const
        ).map(([name, label]) => (
          <Controller
            key={name}
            control={control}
            name={name}
            render={({ field }) => (
              <Checkbox
                label={label}
                checked={Boolean(field.value)}
                onChange={(e) => field.onChange(e.currentTarget.checked)}
              />
            )}
          />
        ))}
        {showNote && (
          <Textarea
            label="Hinweis"
            withAsterisk
            maxLength={limits.supplierNote + 1}
            autosize
            minRows={2}
            {...register('supplierNote')}
            error={err('supplierNote')}
            readOnly={readOnly}
          />
        )}
      </Stack>
    </Fieldset>
  );
}

/**
 * The supplier settings form (§3) with the shared schema as resolver: the same rules and messages as
 * the API. Fields that a protocol needs appear with it; the API's 400 field errors land on the fields.
 */
export function SupplierForm({ bp, supplier, state, readOnly, saving, onSubmit }: SupplierFormProps) {
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(SupplierSettingsInput),
    defaultValues: formValues(bp, supplier),
    mode: 'onTouched',
  });
  const { register, control, handleSubmit, setError, reset, formState } = form;
  useEffect(() => reset(formValues(bp, supplier)), [bp, supplier, reset]);

  const protocols = useProtocols();
  const formats = useDataFormats();
  const outProtocol = useWatch({ control, name: 'outboundInterface.communicationProtocolId' });
  const workflows = useWorkflowOptions(outProtocol);
  // The API names the protocols and formats as the spec's enums ('Sftp', 'Edi_96A'); users read the German labels.
  const protocolData = (protocols.data ?? []).map((p) => ({
    value: String(p.id),
    label: communicationProtocolLabels[p.id] ?? p.name,
  }));
  const formatData = (formats.data ?? []).map((f) => ({
    value: String(f.id),
    label: communicationDataFormatLabels[f.id] ?? f.name,
  }));
  const err = (name: FieldPath<FormInput>) => {
    const parts = name.split('.');
    let node: unknown = formState.errors;
    for (const p of parts) node = (node as Record<string, unknown> | undefined)?.[p];
    return (node as { message?: string } | undefined)?.message;
  };

  const submit = handleSubmit(async (values) => {
    const issues = supplierStateIssues(values, state);
    if (issues.length) {
      issues.forEach((i) => setError(i.field as FieldPath<FormInput>, { message: i.message }));
      return;
    }
    try {
      await onSubmit(values);
    } catch (e) {
      if (e instanceof ApiError && e.problem?.errors)
        for (const fieldError of e.problem.errors)
          setError(fieldError.field.replace(/^body\./, '') as FieldPath<FormInput>, { message: fieldError.message });
      throw e;
    }
  });

  const protocolSelect = (
    name: 'inboundInterface.communicationProtocolId' | 'outboundInterface.communicationProtocolId',
    label: string,
  ) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Select
          label={label}
          data={protocolData}
          value={String(field.value ?? '')}
          onChange={(v) => field.onChange(Number(v))}
          allowDeselect={false}
          disabled={readOnly}
          error={err(name)}
        />
      )}
    />
  );
  const formatSelect = (name: 'inboundInterface.dataFormats' | 'outboundInterface.dataFormats', label: string) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <MultiSelect
          label={label}
          data={formatData}
          value={(field.value ?? []).map(String)}
          onChange={(v) => field.onChange(v.map(Number))}
          disabled={readOnly}
          error={err(name)}
        />
      )}
    />
  );
  const input = (name: FieldPath<FormInput>, label: string, required = false) => (
    <TextInput label={label} withAsterisk={required} {...register(name)} error={err(name)} readOnly={readOnly} />
  );

  // SFTP/FTP and AS2 name a workflow: the connection profile (AS2: the partner's certificate and settings).
  const workflowSelect = (
    <Controller
      control={control}
      name="workflowId"
      render={({ field }) =>
        workflows.options ? (
          <Select
            label="Workflow"
            withAsterisk
            data={workflows.options}
            value={field.value ? String(field.value) : null}
            onChange={(v) => field.onChange(v ? Number(v) : null)}
            disabled={readOnly}
            error={err('workflowId')}
          />
        ) : (
          <NumberInput
            label="Workflow-ID"
            withAsterisk
            value={field.value ?? ''}
            onChange={(v) => field.onChange(typeof v === 'number' ? v : null)}
            allowDecimal={false}
            min={1}
            disabled={readOnly}
            error={err('workflowId')}
          />
        )
      }
    />
  );

  return (
    <form onSubmit={(e) => void submit(e).catch(() => {})} noValidate aria-label="Lieferanteneinstellungen">
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0 }}>
        <Stack>
          <StatusFields control={control} readOnly={readOnly} err={err} />
          <Fieldset legend="Ansprechpartner">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              {input('contactPersonName', 'Name', true)}
              {input('contactPersonPhone', 'Telefon')}
              {input('contactPersonEmail', 'E-Mail', true)}
            </SimpleGrid>
          </Fieldset>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {input('gln', 'GLN')}
            {input('headquarterGln', 'GLN der Zentrale')}
          </SimpleGrid>
          <Fieldset legend="Eingehende Schnittstelle">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {protocolSelect('inboundInterface.communicationProtocolId', 'Protokoll (eingehend)')}
              {formatSelect('inboundInterface.dataFormats', 'Datenformate (eingehend)')}
            </SimpleGrid>
          </Fieldset>
          <Fieldset legend="Ausgehende Schnittstelle">
            <Stack>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {protocolSelect('outboundInterface.communicationProtocolId', 'Protokoll (ausgehend)')}
                {formatSelect('outboundInterface.dataFormats', 'Datenformate (ausgehend)')}
              </SimpleGrid>
              {outProtocol === CommunicationProtocol.Email &&
                input('outboundInterface.emailAddress', 'E-Mail-Adressen für Bestellungen (durch ; getrennt)', true)}
              {workflowProtocols.includes(outProtocol) && (
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  {input('outboundInterface.ftpFolder', 'FTP-Verzeichnis', true)}
                  {workflowSelect}
                </SimpleGrid>
              )}
              {outProtocol === CommunicationProtocol.As2 && (
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  {input('outboundInterface.as2Identifier', 'AS2-Kennung', true)}
                  {input('outboundInterface.as2Url', 'AS2-URL', true)}
                  {workflowSelect}
                </SimpleGrid>
              )}
            </Stack>
          </Fieldset>
          <DeliveryCostFields control={control} readOnly={readOnly} err={err} />
          <Fieldset legend="E-Mail-Adressen">
            <Stack>
              {input('ordersSummaryEmail', 'Bestellübersicht an (mehrere durch ; getrennt)')}
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {input('customerOnboardingEmail', 'Kundenanfragen an', true)}
                {input('newCustomerOnboardingEmail', 'Neukundenanfragen an', true)}
              </SimpleGrid>
            </Stack>
          </Fieldset>
          <DisplayFields control={control} register={register} readOnly={readOnly} err={err} />
        </Stack>
      </fieldset>
      {!readOnly && (
        <Group justify="flex-end" mt="md">
          <Button type="submit" loading={saving}>
            Speichern
          </Button>
        </Group>
      )}
    </form>
  );
}
