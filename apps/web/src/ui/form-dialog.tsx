import { useEffect, type FormEventHandler, type ReactNode } from 'react';
import { Button, Card, Group, Modal, Stack, Text, Title, type ModalProps } from '@mantine/core';
import {
  useForm,
  type DefaultValues,
  type FieldValues,
  type Mode,
  type Path,
  type UseFormReturn,
} from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import './zod-german';
import type { z } from 'zod';
import { fieldErrors, problemTitle } from '../api/problem';
import { toast } from './toast';

export interface SubmitFormOptions<Input extends FieldValues, Output, Result> {
  /** The contracts' (or the form's) zod schema; its messages are German (zod-german). */
  schema: z.ZodType<Output, Input>;
  defaultValues: Input;
  /** When the fields are checked before a submit; 'onTouched' unless given. */
  mode?: Mode;
  /** The form returns to `defaultValues` each time this turns true (a dialog opening). */
  resetWhen?: boolean;
  /** Sends the checked values; a rejection carries the ApiError. */
  submit: (values: Output) => Promise<Result>;
  /** The green toast after success. */
  success?: string | ((result: Result) => string);
  /** After success and its toast: close the dialog, empty the card. */
  onSuccess?: (result: Result, form: UseFormReturn<Input, unknown, Output>) => void;
  /** Fields whose messages from the server's validation problem are shown under them instead of a toast. */
  serverFields?: readonly Path<Input>[];
  /** A failure the form shows itself (e.g. a conflict on one field); returns true when it did. */
  onProblem?: (error: unknown, form: UseFormReturn<Input, unknown, Output>) => boolean;
  /** The red toast of any other failure: the server's German title, else this text (or always this text). */
  failure: string | { always: string };
}

export interface SubmitForm<Input extends FieldValues, Output> {
  form: UseFormReturn<Input, unknown, Output>;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitting: boolean;
}

/** Shows a failed submit: server field messages under their fields, else the form's own handling, else a toast. */
function showFailure<Input extends FieldValues, Output, Result>(
  error: unknown,
  form: UseFormReturn<Input, unknown, Output>,
  { serverFields = [], onProblem, failure }: SubmitFormOptions<Input, Output, Result>,
) {
  const byField = fieldErrors(error);
  const shown = serverFields.filter((field) => byField[field]);
  for (const field of shown) form.setError(field, { message: byField[field] });
  if (onProblem?.(error, form) || shown.length) return;
  toast.error(typeof failure === 'string' ? problemTitle(error, failure) : failure.always);
}

/**
 * The portal's form shape: react-hook-form checked by a zod schema, one submit that sends the values, a German
 * success toast and `onSuccess` (close, reset), and on failure the server's field messages or a German error toast.
 */
export function useSubmitForm<Input extends FieldValues, Output, Result>(
  options: SubmitFormOptions<Input, Output, Result>,
): SubmitForm<Input, Output> {
  const { schema, defaultValues, mode = 'onTouched', resetWhen, submit, success, onSuccess } = options;
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(schema),
    mode,
    defaultValues: defaultValues as DefaultValues<Input>,
  });
  useEffect(() => {
    if (resetWhen) form.reset(defaultValues);
    // Only an opening resets (with the defaults of that moment): new default objects on each render must not empty
    // what the user typed.
  }, [resetWhen, form]);

  const onSubmit = form.handleSubmit(async (values) => {
    let result: Result;
    try {
      result = await submit(values);
    } catch (error) {
      showFailure(error, form, options);
      return;
    }
    if (success) toast.success(typeof success === 'string' ? success : success(result));
    onSuccess?.(result, form);
  });
  return { form, onSubmit: (event) => void onSubmit(event), submitting: form.formState.isSubmitting };
}

interface FormActionsProps {
  submitLabel: string;
  submitting: boolean;
  /** 'Abbrechen' beside the submit button. */
  onCancel?: () => void;
}

function FormActions({ submitLabel, submitting, onCancel }: FormActionsProps) {
  return (
    <Group justify={onCancel ? 'flex-end' : 'flex-start'} gap="sm">
      {onCancel && (
        <Button variant="default" onClick={onCancel}>
          Abbrechen
        </Button>
      )}
      <Button type="submit" loading={submitting} disabled={submitting}>
        {submitLabel}
      </Button>
    </Group>
  );
}

export interface FormDialogProps<Input extends FieldValues, Output> {
  opened: boolean;
  onClose: () => void;
  title: string;
  size?: ModalProps['size'];
  /** The dialog's fade in milliseconds (Mantine's default unless given). */
  transitionDuration?: number;
  /** The form from useSubmitForm. */
  form: SubmitForm<Input, Output>;
  submitLabel: string;
  /** A line of explanation above the fields. */
  intro?: ReactNode;
  /** The fields. */
  children: ReactNode;
}

/** A form in a dialog: intro, fields, 'Abbrechen' and the submit button (busy while sending). */
export function FormDialog<Input extends FieldValues, Output>({
  opened,
  onClose,
  title,
  size,
  transitionDuration,
  form,
  submitLabel,
  intro,
  children,
}: FormDialogProps<Input, Output>) {
  const transitionProps = transitionDuration === undefined ? undefined : { duration: transitionDuration };
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={size} centered transitionProps={transitionProps}>
      <form noValidate onSubmit={form.onSubmit}>
        <Stack gap="md">
          {intro && (
            <Text size="sm" c="dimmed">
              {intro}
            </Text>
          )}
          {children}
          <FormActions submitLabel={submitLabel} submitting={form.submitting} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}

export interface FormCardProps<Input extends FieldValues, Output> {
  /** The card's heading (an h2) and its id, which names the section. */
  title: string;
  id: string;
  intro?: ReactNode;
  form: SubmitForm<Input, Output>;
  submitLabel: string;
  /** Before the fields inside the form (e.g. a hidden user name for password managers). */
  hidden?: ReactNode;
  children: ReactNode;
  mt?: string;
}

/** A form on a page in a card section: heading, intro, fields and the submit button. */
export function FormCard<Input extends FieldValues, Output>({
  title,
  id,
  intro,
  form,
  submitLabel,
  hidden,
  children,
  mt,
}: FormCardProps<Input, Output>) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={id} mt={mt}>
      <Title order={2} id={id} mb="xs">
        {title}
      </Title>
      {intro && (
        <Text size="sm" c="dimmed" mb="md">
          {intro}
        </Text>
      )}
      <form noValidate onSubmit={form.onSubmit}>
        {hidden}
        <Stack gap="md" maw={480}>
          {children}
          <FormActions submitLabel={submitLabel} submitting={form.submitting} />
        </Stack>
      </form>
    </Card>
  );
}
