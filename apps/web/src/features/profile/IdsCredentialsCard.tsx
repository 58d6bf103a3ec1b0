import { Button, Card, Code, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../ui/zod-german';
import { idsMessages, UpdateIdsCredentials } from '@shk/contracts';
import type { z } from 'zod';
import { idsCredentialsApi } from '../../api/ids';
import { fieldErrors, problemTitle } from '../../api/problem';
import { toast } from '../../ui/toast';

type FormInput = z.input<typeof UpdateIdsCredentials>;
type FormOutput = z.output<typeof UpdateIdsCredentials>;

/**
 * The buyer's IDS-Connect login for craftsman software (docs/ids.md): customer number = the current
 * business partner, user name and password chosen here; the password is stored hashed only.
 */
export function IdsCredentialsCard({ bpNumber }: { bpNumber: string }) {
  const queryClient = useQueryClient();
  const current = useQuery({ queryKey: ['ids', 'credentials', bpNumber], queryFn: idsCredentialsApi.get });
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(UpdateIdsCredentials),
    values: { loginName: current.data?.loginName ?? '', password: '' },
  });
  const save = useMutation({
    mutationFn: idsCredentialsApi.save,
    onSuccess: async () => {
      toast.success(idsMessages.credentialsSaved);
      form.reset({ loginName: form.getValues('loginName'), password: '' });
      await queryClient.invalidateQueries({ queryKey: ['ids', 'credentials'] });
    },
    onError: (error) => {
      const fields = fieldErrors(error);
      if (fields['body.loginName']) form.setError('loginName', { message: fields['body.loginName'] });
      else toast.error(problemTitle(error, 'Speichern fehlgeschlagen'));
    },
  });
  const { errors } = form.formState;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="profile-ids">
      <Title order={2} id="profile-ids" mb="xs">
        IDS-Connect
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Zugangsdaten für Ihre Handwerkersoftware. Kundennummer: <Code>{bpNumber}</Code>
      </Text>
      <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
        <Stack gap="sm">
          <TextInput label="Benutzername" required {...form.register('loginName')} error={errors.loginName?.message} />
          <PasswordInput
            label="Passwort"
            required
            autoComplete="new-password"
            {...form.register('password')}
            error={errors.password?.message}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {current.data?.configured ? 'Zugangsdaten ändern' : 'Zugangsdaten speichern'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
