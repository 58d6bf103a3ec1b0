import { PasswordInput } from '@mantine/core';
import { ChangePasswordBody, passwordRules, passwordTexts } from '@shk/contracts';
import { profileApi } from '../../api/profile';
import { FormCard, useSubmitForm } from '../../ui/form-dialog';

const empty = { currentPassword: '', newPassword: '', newPasswordRepeat: '' };

/**
 * 'Passwort ändern' on 'Mein Profil': the current password and the new one twice. The form checks the length rules
 * and the repetition (the contracts' schema); the API checks them again, plus the list of common passwords and the
 * current password, and its German field messages are shown under the fields.
 */
export function ChangePasswordCard({ email }: { email: string }) {
  const submitForm = useSubmitForm({
    schema: ChangePasswordBody,
    defaultValues: empty,
    submit: (body) => profileApi.changePassword(body),
    success: passwordTexts.changed,
    onSuccess: (_, form) => form.reset(empty),
    serverFields: ['currentPassword', 'newPassword', 'newPasswordRepeat'],
    failure: 'Das Passwort konnte nicht geändert werden.',
  });
  const { register, formState } = submitForm.form;
  const { errors } = formState;
  return (
    <FormCard
      title="Passwort ändern"
      id="profile-password"
      intro={`${passwordTexts.hint} Nach der Änderung werden Ihre anderen Anmeldungen beendet.`}
      form={submitForm}
      submitLabel="Passwort ändern"
      // For password managers: the account the new password belongs to.
      hidden={<input type="email" name="username" autoComplete="username" value={email} readOnly hidden />}
      mt="lg"
    >
      <PasswordInput
        label="Aktuelles Passwort"
        autoComplete="current-password"
        withAsterisk
        error={errors.currentPassword?.message}
        {...register('currentPassword')}
      />
      <PasswordInput
        label="Neues Passwort"
        autoComplete="new-password"
        withAsterisk
        maxLength={passwordRules.maxLength}
        error={errors.newPassword?.message}
        {...register('newPassword')}
      />
      <PasswordInput
        label="Neues Passwort wiederholen"
        autoComplete="new-password"
        withAsterisk
        maxLength={passwordRules.maxLength}
        error={errors.newPasswordRepeat?.message}
        {...register('newPasswordRepeat')}
      />
    </FormCard>
  );
}
