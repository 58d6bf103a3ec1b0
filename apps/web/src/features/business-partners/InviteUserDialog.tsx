import { useEffect } from 'react';
import { Button, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../ui/zod-german';
import { InviteUserBody, passwordRules, passwordTexts, Role, roleLabels } from '@shk/contracts';
import { z } from 'zod';
import { usersApi } from '../../api/users';
import { fieldErrors, hasStatus, problemTitle } from '../../api/problem';
import { toast } from '../../ui/toast';

/** The form: the contracts' invitation with the role as the select's text and the partner numbers as one line. */
const InviteForm = InviteUserBody.extend({
  role: z.string().min(1, 'Bitte wählen Sie eine Rolle.'),
  businessPartnerNumbers: z.string().max(1000),
});
type FormInput = z.input<typeof InviteForm>;
type FormOutput = z.output<typeof InviteForm>;

const empty: FormInput = {
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

const toBody = (values: FormOutput): InviteUserBody => ({
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
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(InviteForm),
    mode: 'onTouched',
    defaultValues: empty,
  });
  const { errors, isSubmitting } = form.formState;

  useEffect(() => {
    if (opened) form.reset(empty);
  }, [opened, form]);

  const invite = useMutation({
    mutationFn: (values: FormOutput) => usersApi.invite(toBody(values)),
    onSuccess: (result) => {
      toast.success(passwordTexts.invited(result.email));
      onClose();
    },
    onError: (error) => {
      const byField = fieldErrors(error);
      const shown = (['email', 'role', 'businessPartnerNumbers'] as const).filter((field) => byField[field]);
      for (const field of shown) form.setError(field, { message: byField[field] });
      if (hasStatus(error, 409)) form.setError('email', { message: problemTitle(error, passwordTexts.emailTaken) });
      else if (!shown.length) toast.error(problemTitle(error, 'Die Einladung konnte nicht versandt werden.'));
    },
  });

  return (
    <Modal opened={opened} onClose={onClose} title="Benutzer einladen" size="lg" centered>
      <form
        noValidate
        onSubmit={form.handleSubmit(async (values) => {
          await invite.mutateAsync(values).catch(() => {});
        })}
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Die Person erhält eine E-Mail mit einem Link, über den sie ihr Passwort festlegt. Der Link ist{' '}
            {passwordRules.invitationLinkDays} Tage gültig und kann einmal verwendet werden.
          </Text>
          <TextInput
            label="E-Mail-Adresse"
            type="email"
            withAsterisk
            error={errors.email?.message}
            {...form.register('email')}
          />
          <Group grow wrap="wrap">
            <TextInput label="Vorname" miw={180} error={errors.firstName?.message} {...form.register('firstName')} />
            <TextInput label="Nachname" miw={180} error={errors.lastName?.message} {...form.register('lastName')} />
          </Group>
          <NativeSelect
            label="Rolle"
            withAsterisk
            data={invitableRoles(inviter).map((role) => ({ value: String(role), label: roleLabels[role] }))}
            error={errors.role?.message}
            {...form.register('role')}
          />
          <TextInput
            label="Geschäftspartnernummern"
            description="Für Einkäufer und Verkäufer, mehrere durch Komma getrennt; die erste ist der aktuelle."
            placeholder="z. B. 100001"
            error={errors.businessPartnerNumbers?.message}
            {...form.register('businessPartnerNumbers')}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Abbrechen
            </Button>
            <Button type="submit" loading={isSubmitting} disabled={isSubmitting}>
              Einladen
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
