import { TextInput } from '@mantine/core';
import { cartMessages, CreateCartRequest, ProblemType, timings } from '@shk/contracts';
import { ApiError } from '../../api/problem';
import { FormDialog, useSubmitForm } from '../../ui/form-dialog';

interface CartNameModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  submitLabel: string;
  initialName?: string;
  /** Creates or renames; a rejected promise carries the ApiError. */
  onSubmit: (name: string) => Promise<unknown>;
}

/** The server's message for the name field of a 400: its title for a taken or refused name, else its first field message. */
function nameProblem(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined;
  const type = error.problem?.type;
  if ((type === ProblemType.entityAlreadyExists || type === ProblemType.valueNotInRange) && error.problem?.title) {
    return error.problem.title;
  }
  return error.problem?.errors?.[0]?.message;
}

/**
 * Name of a new or renamed cart (spec §5): required, max 50, letters, digits, hyphen, underscore,
 * parentheses and spaces. A 400 'entity-already-exists' or 'value-not-in-range' shows the server's
 * title on the field; other failures 'Fehler beim Erstellen des Warenkorbs'.
 */
export function CartNameModal({ opened, onClose, title, submitLabel, initialName = '', onSubmit }: CartNameModalProps) {
  const submitForm = useSubmitForm({
    schema: CreateCartRequest,
    defaultValues: { name: initialName },
    mode: 'onChange',
    resetWhen: opened,
    submit: ({ name }) => onSubmit(name),
    onSuccess: onClose,
    onProblem: (error, form) => {
      const message = nameProblem(error);
      if (message) form.setError('name', { message });
      return message !== undefined;
    },
    failure: { always: cartMessages.createCartFailure },
  });
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={title}
      transitionDuration={timings.modalFadeMs}
      form={submitForm}
      submitLabel={submitLabel}
    >
      <TextInput
        label="Name des Warenkorbs"
        withAsterisk
        data-autofocus
        error={submitForm.form.formState.errors.name?.message}
        {...submitForm.form.register('name')}
      />
    </FormDialog>
  );
}
