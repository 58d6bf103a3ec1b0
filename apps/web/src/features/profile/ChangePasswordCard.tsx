import { Button, Card, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../ui/zod-german';
import { ChangePasswordBody, passwordRules, passwordTexts } from '@shk/contracts';
import type { z } from 'zod';
import { profileApi } from '../../api/profile';
import { fieldErrors, problemTitle } from '../../api/problem';
import { toast } from '../../ui/toast';

type FormInput = z.input<typeof ChangePasswordBody>;
type FormOutput = z.output<typeof ChangePasswordBody>;

const empty: FormInput = { currentPassword: '', newPassword: '', newPasswordRepeat: '' };
const fields = ['currentPassword', 'newPassword', 'newPasswordRepeat'] as const;

/**
 * 'Passwort ändern' on 'Mein Profil': the current password and the new one twice. The form checks the length rules
 * and the repetition (the contracts' schema); the API checks them again, plus the list of common passwords and the
 * current password, and its German field messages are shown under the fields.
 */
export function ChangePasswordCard({ email }: { email: string }) {
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(ChangePasswordBody),
    mode: 'onTouched',
    defaultValues: empty,
  });
  const { errors, isSubmitting } = form.formState;

  const change = useMutation({
    mutationFn: (body: FormOutput) => profileApi.changePassword(body),
    onSuccess: () => {
      toast.success(passwordTexts.changed);
      form.reset(empty);
    },
    onError: (error) => {
      const byField = fieldErrors(error);
      const shown = fields.filter((field) => byField[field]);
      for (const field of shown) form.setError(field, { message: byField[field] });
      if (!shown.length) toast.error(problemTitle(error, 'Das Passwort konnte nicht geändert werden.'));
    },
  });

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="profile-password" mt="lg">
      <Title order={2} id="profile-password" mb="xs">
        Passwort ändern
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {passwordTexts.hint} Nach der Änderung werden Ihre anderen Anmeldungen beendet.
      </Text>
      <form
        noValidate
        onSubmit={form.handleSubmit(async (values) => {
          await change.mutateAsync(values).catch(() => {});
        })}
      >
        {/* For password managers: the account the new password belongs to. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <Stack gap="md" maw={480}>
          <PasswordInput
            label="Aktuelles Passwort"
            autoComplete="current-password"
            withAsterisk
            error={errors.currentPassword?.message}
            {...form.register('currentPassword')}
          />
          <PasswordInput
            label="Neues Passwort"
            autoComplete="new-password"
            withAsterisk
            maxLength={passwordRules.maxLength}
            error={errors.newPassword?.message}
            {...form.register('newPassword')}
          />
          <PasswordInput
            label="Neues Passwort wiederholen"
            autoComplete="new-password"
            withAsterisk
            maxLength={passwordRules.maxLength}
            error={errors.newPasswordRepeat?.message}
            {...form.register('newPasswordRepeat')}
          />
          <Group>
            <Button type="submit" loading={isSubmitting} disabled={isSubmitting}>
              Passwort ändern
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
