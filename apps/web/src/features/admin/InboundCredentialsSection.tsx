import { useState } from 'react';
import { Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { InboundCredentialsInput } from '@shk/contracts';
import { problemTitle } from '../../api/problem';
import { inboundCredentialsApi, useInboundCredentials } from '../../api/supplier-orders';
import { formatDateTime } from '../../ui/format';
import { toast } from '../../ui/toast';

/**
 * Credentials of the supplier's system for electronic order responses (POST /inbound/ordrsp, HTTP Basic).
 * Administrators set them; the password is write-only (stored as a hash, never shown).
 */
export function InboundCredentialsSection({ bp, readOnly }: { bp: string; readOnly: boolean }) {
  const queryClient = useQueryClient();
  const current = useInboundCredentials(bp);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const save = async () => {
    const parsed = InboundCredentialsInput.safeParse({ username: username || current.data?.username || '', password });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await inboundCredentialsApi.set(bp, parsed.data);
      toast.success('Die Zugangsdaten wurden gespeichert.');
      setPassword('');
      setUsername('');
      await queryClient.invalidateQueries({ queryKey: ['bp'] });
    } catch (error) {
      toast.error(problemTitle(error, 'Die Zugangsdaten konnten nicht gespeichert werden.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="xs" component="section" aria-label="Zugangsdaten Auftragsbestätigungen">
      <Title order={3} size="h5">
        Zugangsdaten für Auftragsbestätigungen (ORDRSP per HTTP)
      </Title>
      <Text size="sm" c="dimmed" data-testid="inbound-credentials-current">
        {current.data?.username
          ? `Benutzername: ${current.data.username}${current.data.updatedAt ? ` (gesetzt ${formatDateTime(current.data.updatedAt)})` : ''}`
          : 'Keine Zugangsdaten hinterlegt.'}
      </Text>
      {!readOnly && (
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label="Benutzername"
            placeholder={current.data?.username ?? ''}
            value={username}
            onChange={(e) => setUsername(e.currentTarget.value)}
            error={errors.username}
            w={240}
          />
          <PasswordInput
            label="Neues Passwort"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errors.password}
            autoComplete="new-password"
            w={240}
          />
          <Button variant="light" onClick={() => void save()} loading={busy}>
            Zugangsdaten speichern
          </Button>
        </Group>
      )}
    </Stack>
  );
}
