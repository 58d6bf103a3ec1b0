import { useEffect } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../ui/zod-german';
import { messages, PartnerDataChangeRequest } from '@shk/contracts';
import type { z } from 'zod';
import { profileApi } from '../../api/profile';
import { toast } from '../../ui/toast';

type FormInput = z.input<typeof PartnerDataChangeRequest>;
type FormOutput = z.output<typeof PartnerDataChangeRequest>;

interface DataChangeRequestDialogProps {
  opened: boolean;
  onClose: () => void;
  /** Prefills the reply address. */
  defaultEmail: string;
}

/** Asks the support team to change the company data: message and e-mail required, phone optional. */
export function DataChangeRequestDialog({ opened, onClose, defaultEmail }: DataChangeRequestDialogProps) {
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(PartnerDataChangeRequest),
    mode: 'onChange',
    defaultValues: { message: '', email: defaultEmail, phoneNumber: '' },
  });
  const { errors, isSubmitting } = form.formState;

  useEffect(() => {
    if (opened) form.reset({ message: '', email: defaultEmail, phoneNumber: '' });
  }, [opened, defaultEmail, form]);

  const send = useMutation({
    mutationFn: (body: FormOutput) =>
      profileApi.requestPartnerDataChange({ ...body, phoneNumber: body.phoneNumber || null }),
    onSuccess: () => {
      toast.success(messages.dataChangeSuccess);
      onClose();
    },
    onError: () => toast.error(messages.dataChangeFailure),
  });

  return (
    <Modal opened={opened} onClose={onClose} title="Änderung der Firmendaten beantragen" size="lg" centered>
      <form
        noValidate
        onSubmit={form.handleSubmit(async (values) => {
          await send.mutateAsync(values).catch(() => {});
        })}
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Beschreiben Sie, welche Firmendaten geändert werden sollen. Unser Support meldet sich bei Ihnen.
          </Text>
          <Textarea
            label="Nachricht"
            withAsterisk
            autosize
            minRows={4}
            maxRows={10}
            error={errors.message?.message}
            {...form.register('message')}
          />
          <TextInput
            label="E-Mail-Adresse"
            type="email"
            withAsterisk
            error={errors.email?.message}
            {...form.register('email')}
          />
          <TextInput
            label="Telefonnummer"
            type="tel"
            error={errors.phoneNumber?.message}
            {...form.register('phoneNumber')}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Abbrechen
            </Button>
            <Button type="submit" loading={isSubmitting} disabled={isSubmitting}>
              Anfrage senden
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
