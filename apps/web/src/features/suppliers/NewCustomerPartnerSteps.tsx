import type { ReactNode } from 'react';
import { Alert, Button, Group, Loader, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../ui/zod-german';
import { z } from 'zod';
import {
  newCustomerCountry,
  newCustomerCountryNames,
  newCustomerPartnerFields,
  newCustomerPartnerLabels,
  relationPartnerMessages,
} from '@shk/contracts';
import type { BusinessPartner } from '../../api/types';

/**
 * The business-partner steps of the add-supplier dialog for a buyer without customer number (spec: buyer detail, add
 * business partner, edit business partner, confirm business partner): the buyer's company as the portal knows it, the
 * company data the supplier gets to set the buyer up as a new customer (prefilled from it), their confirmation and,
 * from there, their correction. The API checks the same rules (NewCustomerPartner in the contracts).
 */

/** The form's values: every field a string (optional ones may stay empty). */
export const PartnerForm = z.object(newCustomerPartnerFields).superRefine((value, ctx) => {
  if (!value.vatId && !value.taxNumber)
    ctx.addIssue({ code: 'custom', path: ['vatId'], message: relationPartnerMessages.taxIdentifier });
});
export type PartnerForm = z.infer<typeof PartnerForm>;

/** The company data prefilled from the buyer's business partner. */
export function partnerFormFrom(partner: BusinessPartner | undefined): PartnerForm {
  return {
    officialCompanyName: partner?.officialCompanyName ?? partner?.name ?? '',
    street: partner?.street ?? '',
    houseNumber: partner?.houseNumber ?? '',
    postalCode: partner?.postalCode ?? '',
    city: partner?.city ?? '',
    email: partner?.contact.eMail ?? '',
    phoneNumber: partner?.contact.phoneNumber ?? '',
    faxNumber: partner?.faxNumber ?? '',
    website: partner?.website ?? '',
    vatId: '',
    taxNumber: partner?.taxNumber ?? '',
  };
}

/** Labels of the company data, in the order the form and the summary show them (the country is not asked). */
const labels: Record<keyof PartnerForm, string> = Object.fromEntries(
  Object.entries(newCustomerPartnerLabels).filter(([key]) => key !== 'country'),
) as Record<keyof PartnerForm, string>;
const required = new Set<keyof PartnerForm>([
  'officialCompanyName',
  'street',
  'houseNumber',
  'postalCode',
  'city',
  'email',
  'phoneNumber',
]);

function Field({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {value || '–'}
      </Text>
    </div>
  );
}

/** Buyer detail: the business partner the request is for, as the portal knows it, and the contact person. */
export function BuyerDetailStep({
  partner,
  loading,
  contact,
  onBack,
  onNext,
}: {
  partner: BusinessPartner | undefined;
  loading: boolean;
  contact: { name: string; email: string; phone: string };
  onBack: () => void;
  onNext: () => void;
}) {
  const address = partner
    ? [
        [partner.street, partner.houseNumber].filter(Boolean).join(' '),
        [partner.postalCode, partner.city].filter(Boolean).join(' '),
      ]
        .filter(Boolean)
        .join(', ')
    : '';
  return (
    <Stack gap="md">
      <Text size="sm">
        Der Lieferant legt Sie als Neukunden an. Dafür erhält er mit Ihrer Anfrage die Firmendaten Ihres
        Geschäftspartners, die Sie im nächsten Schritt prüfen.
      </Text>
      {loading ? (
        <Loader size="sm" aria-label="Wird geladen" />
      ) : (
        <Paper withBorder p="sm" radius="sm" data-testid="buyer-detail">
          <Text fw={600}>{partner?.officialCompanyName ?? partner?.name}</Text>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
            <Field label="Geschäftspartnernummer" value={partner?.businessPartnerNo} />
            <Field label="Anschrift" value={address} />
            <Field label="E-Mail der Firma" value={partner?.contact.eMail} />
            <Field label="Telefon der Firma" value={partner?.contact.phoneNumber} />
          </SimpleGrid>
        </Paper>
      )}
      <Paper withBorder p="sm" radius="sm">
        <Text size="xs" c="dimmed">
          Ansprechpartner
        </Text>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {[contact.name, contact.email, contact.phone].filter(Boolean).join(' · ')}
        </Text>
      </Paper>
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          Zurück
        </Button>
        <Button onClick={onNext} disabled={loading}>
          Weiter
        </Button>
      </Group>
    </Stack>
  );
}

/** Add (first time, prefilled) or edit (from the confirmation) the company data. */
export function PartnerFormStep({
  mode,
  initial,
  onBack,
  onDone,
}: {
  mode: 'add' | 'edit';
  initial: PartnerForm;
  onBack: () => void;
  onDone: (values: PartnerForm) => void;
}) {
  const form = useForm<PartnerForm>({ resolver: zodResolver(PartnerForm), mode: 'onTouched', defaultValues: initial });
  const { errors } = form.formState;
  const input = (name: keyof PartnerForm, props: { type?: string } = {}) => (
    <TextInput
      key={name}
      label={labels[name]}
      withAsterisk={required.has(name)}
      error={errors[name]?.message}
      {...props}
      {...form.register(name)}
    />
  );
  return (
    <form
      noValidate
      onSubmit={(event) =>
        void form.handleSubmit((values) =>
          onDone(Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()])) as PartnerForm),
        )(event)
      }
    >
      <Stack gap="sm">
        {input('officialCompanyName')}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {input('street')}
          {input('houseNumber')}
          {input('postalCode')}
          {input('city')}
          {input('email', { type: 'email' })}
          {input('phoneNumber', { type: 'tel' })}
          {input('faxNumber', { type: 'tel' })}
          {input('website')}
          {input('vatId')}
          {input('taxNumber')}
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          Für die Anlage als Neukunde genügt eine der beiden Angaben: USt-IdNr. oder Steuernummer.
        </Text>
        <Group justify="space-between">
          <Button variant="default" onClick={onBack}>
            Zurück
          </Button>
          <Button type="submit">{mode === 'add' ? 'Weiter' : 'Änderungen übernehmen'}</Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Confirm: the company data as the supplier will get them; edit goes back to the form, send sends the request. */
export function ConfirmPartnerStep({
  values,
  onEdit,
  onSend,
  pending,
}: {
  values: PartnerForm;
  onEdit: () => void;
  onSend: () => void;
  pending: boolean;
}) {
  return (
    <Stack gap="md">
      <Alert variant="light" color="blue" title="Bitte prüfen Sie die Firmendaten">
        Mit dem Senden bestätigen Sie, dass diese Angaben richtig sind. Der Lieferant legt Sie damit als Neukunden an.
      </Alert>
      <Paper withBorder p="sm" radius="sm" data-testid="partner-summary">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
          {(Object.keys(labels) as (keyof PartnerForm)[]).map((key) => (
            <Field key={key} label={labels[key]} value={values[key]} />
          ))}
          {/* Not asked: the rules admit German addresses only, and the supplier gets it so. */}
          <Field label={newCustomerPartnerLabels.country} value={newCustomerCountryNames[newCustomerCountry]} />
        </SimpleGrid>
      </Paper>
      <Group justify="space-between">
        <Button variant="default" onClick={onEdit}>
          Bearbeiten
        </Button>
        <Button onClick={onSend} loading={pending}>
          Anfrage senden
        </Button>
      </Group>
    </Stack>
  );
}
