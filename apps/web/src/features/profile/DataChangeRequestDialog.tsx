import { TextInput, Textarea } from '@mantine/core';
import { messages, PartnerDataChangeRequest } from '@shk/contracts';
import { profileApi } from '../../api/profile';
import { FormDialog, useSubmitForm } from '../../ui/form-dialog';

interface DataChangeRequestDialogProps {
  opened: boolean;
  onClose: () => void;
  /** Prefills the reply address. */
  defaultEmail: string;
}

/** Asks the support team to change the company data: message and e-mail required, phone optional. */
export function DataChangeRequestDialog({ opened, onClose, defaultEmail }: DataChangeRequestDialogProps) {
  const submitForm = useSubmitForm({
    schema: PartnerDataChangeRequest,
    defaultValues: { message: '', email: defaultEmail, phoneNumber: '' },
    mode: 'onChange',
    resetWhen: opened,
    submit: (body) => profileApi.requestPartnerDataChange({ ...body, phoneNumber: body.phoneNumber || null }),
    success: messages.dataChangeSuccess,
    onSuccess: onClose,
    failure: { always: messages.dataChangeFailure },
  });
  const { register, formState } = submitForm.form;
  const { errors } = formState;
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title="Änderung der Firmendaten beantragen"
      size="lg"
      form={submitForm}
      submitLabel="Anfrage senden"
      intro="Beschreiben Sie, welche Firmendaten geändert werden sollen. Unser Support meldet sich bei Ihnen."
    >
      <Textarea
        label="Nachricht"
        withAsterisk
        autosize
        minRows={4}
        maxRows={10}
        error={errors.message?.message}
        {...register('message')}
      />
      <TextInput
        label="E-Mail-Adresse"
        type="email"
        withAsterisk
        error={errors.email?.message}
        {...register('email')}
      />
      <TextInput label="Telefonnummer" type="tel" error={errors.phoneNumber?.message} {...register('phoneNumber')} />
    </FormDialog>
  );
}
