import { Group, NativeSelect, TextInput } from '@mantine/core';
import { InviteUserBody, passwordRules, passwordTexts, Role, roleLabels } from '@shk/contracts';
import { z } from 'zod';
import { usersApi } from '../../api/users';
import { hasStatus, problemTitle } from '../../api/problem';
import { FormDialog, useSubmitForm } from '../../ui/form-dialog';

/** The form: the contracts' invitation with the role as the select's text and the partner numbers as one line. */
const InviteForm = InviteUserBody.extend({
  role: z.string().min(1, 'Bitte wählen Sie eine Rolle.'),
  businessPartnerNumbers: z.string().max(1000),
});
const empty: z.input<typeof InviteForm> = {
  email: '',
  firstName: '',
  lastName: '',
  role: String(Role.Buyer),
  businessPartnerNumbers: '',
};

/** Whom a staff member may invite (the API checks the same): support only buyers and sellers. */
const invitableRoles = (inviter: Role): Role[] =>
  inviter === Role.Support
    ? [Role.Buyer, Role.Seller]
    : [Role.Buyer, Role.Seller, Role.Administrator, Role.Support, Role.PlatformOperator, Role.None];

const toBody = (values: z.output<typeof InviteForm>): InviteUserBody => ({
  ...values,
  role: Number(values.role) as Role,
  businessPartnerNumbers: values.businessPartnerNumbers.split(/[\s,;]+/).filter(Boolean),
});

/**
 * 'Benutzer einladen': staff enter the person's e-mail address, name, role and business partners; the portal creates
 * the user without a password and mails a set-password link (valid for a few days, through the outbox).
 */
export function InviteUserDialog({
  opened,
  onClose,
  inviter,
}: {
  opened: boolean;
  onClose: () => void;
  inviter: Role;
}) {
  const submitForm = useSubmitForm({
    schema: InviteForm,
    defaultValues: empty,
    resetWhen: opened,
    submit: (values) => usersApi.invite(toBody(values)),
    success: (result) => passwordTexts.invited(result.email),
    onSuccess: onClose,
    serverFields: ['email', 'role', 'businessPartnerNumbers'],
    // An address in use already is said at the address.
    onProblem: (error, form) => {
      if (!hasStatus(error, 409)) return false;
      form.setError('email', { message: problemTitle(error, passwordTexts.emailTaken) });
      return true;
    },
    failure: 'Die Einladung konnte nicht versandt werden.',
  });
  const { register, formState } = submitForm.form;
  const { errors } = formState;

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title="Benutzer einladen"
      size="lg"
      form={submitForm}
      submitLabel="Einladen"
      intro={`Die Person erhält eine E-Mail mit einem Link, über den sie ihr Passwort festlegt. Der Link ist ${passwordRules.invitationLinkDays} Tage gültig und kann einmal verwendet werden.`}
    >
      <TextInput
        label="E-Mail-Adresse"
        type="email"
        withAsterisk
        error={errors.email?.message}
        {...register('email')}
      />
      <Group grow wrap="wrap">
        <TextInput label="Vorname" miw={180} error={errors.firstName?.message} {...register('firstName')} />
        <TextInput label="Nachname" miw={180} error={errors.lastName?.message} {...register('lastName')} />
      </Group>
      <NativeSelect
        label="Rolle"
        withAsterisk
        data={invitableRoles(inviter).map((role) => ({ value: String(role), label: roleLabels[role] }))}
        error={errors.role?.message}
        {...register('role')}
      />
      <TextInput
        label="Geschäftspartnernummern"
        description="Für Einkäufer und Verkäufer, mehrere durch Komma getrennt; die erste ist der aktuelle."
        placeholder="z. B. 100001"
        error={errors.businessPartnerNumbers?.message}
        {...register('businessPartnerNumbers')}
      />
    </FormDialog>
  );
}
