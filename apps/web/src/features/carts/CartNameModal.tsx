import { useEffect } from 'react';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../ui/zod-german';
import type { z } from 'zod';
import { cartMessages, CreateCartRequest, ProblemType, timings } from '@shk/contracts';
import { ApiError } from '../../api/problem';
import { toast } from '../../ui/toast';

type FormInput = z.input<typeof CreateCartRequest>;
type FormOutput = z.output<typeof CreateCartRequest>;

interface CartNameModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  submitLabel: string;
  initialName?: string;
  /** Creates or renames; a rejected promise carries the ApiError. */
  onSubmit: (name: string) => Promise<unknown>;
}

/**
 * Name of a new or renamed cart (spec §5): required, max 50, letters, digits, hyphen, underscore,
 * parentheses and spaces. A 400 'entity-already-exists' or 'value-not-in-range' shows the server's
 * title on the field; other failures 'Fehler beim Erstellen des Warenkorbs'.
 */
export function CartNameModal({ opened, onClose, title, submitLabel, initialName = '', onSubmit }: CartNameModalProps) {
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(CreateCartRequest),
    mode: 'onChange',
    defaultValues: { name: initialName },
  });
  const { errors, isSubmitting } = form.formState;

  useEffect(() => {
    if (opened) form.reset({ name: initialName });
  }, [opened, initialName, form]);

  const submit = form.handleSubmit(async ({ name }) => {
    try {
      await onSubmit(name);
      onClose();
    } catch (error) {
      const type = error instanceof ApiError ? error.problem?.type : undefined;
      if (
        error instanceof ApiError &&
        error.status === 400 &&
        (type === ProblemType.entityAlreadyExists || type === ProblemType.valueNotInRange) &&
        error.problem?.title
      ) {
        form.setError('name', { message: error.problem.title });
      } else if (error instanceof ApiError && error.status === 400 && error.problem?.errors?.length) {
        form.setError('name', { message: error.problem.errors[0].message });
      } else {
        toast.error(cartMessages.createCartFailure);
      }
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={title} centered transitionProps={{ duration: timings.modalFadeMs }}>
      <form noValidate onSubmit={submit}>
        <Stack gap="md">
          <TextInput
            label="Name des Warenkorbs"
            withAsterisk
            data-autofocus
            error={errors.name?.message}
            {...form.register('name')}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Abbrechen
            </Button>
            <Button type="submit" loading={isSubmitting} disabled={isSubmitting}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
