import { useState } from 'react';
import { Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CatalogueImportSettings, catalogueImportMessages } from '@shk/contracts';
import { toast } from '../../ui/toast';
import { problemTitle } from '../../api/problem';
import { catalogueImportApi } from '../../api/catalogue-import';

/**
 * Media the supplier's server gives out only with a token (administrators): the fallback address, tried first, and
 * the token. The token is never shown again; an empty field keeps the one kept, 'Token entfernen' removes it.
 */
export function MediaAccess({ bp }: { bp: string }) {
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ['catalogue-import-settings', bp],
    queryFn: () => catalogueImportApi.settings(bp),
  });
  const [fallback, setFallback] = useState<string | null>(null);
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (change: { removeToken?: boolean }) =>
      catalogueImportApi.saveSettings(bp, {
        maxWithdrawPercent: settings.data!.maxWithdrawPercent,
        maxRejectPercent: settings.data!.maxRejectPercent,
        mediaFallbackBaseUrl: (fallback ?? settings.data!.mediaFallbackBaseUrl ?? '').trim() || null,
        ...(change.removeToken ? { mediaAccessToken: null } : token.trim() ? { mediaAccessToken: token.trim() } : {}),
      }),
    onSuccess: async () => {
      toast.success(catalogueImportMessages.mediaAccessSaved);
      setFallback(null);
      setToken('');
      setError(null);
      await queryClient.invalidateQueries({ queryKey: ['catalogue-import-settings', bp] });
    },
    onError: (failure) => setError(problemTitle(failure, catalogueImportMessages.mediaAccessNotSaved)),
  });
  if (!settings.data) return null;
  // The same rule as the API's, checked before sending.
  const submit = (change: { removeToken?: boolean }) => {
    const value = (fallback ?? settings.data!.mediaFallbackBaseUrl ?? '').trim();
    const checked = CatalogueImportSettings.shape.mediaFallbackBaseUrl.safeParse(value || null);
    if (!checked.success) return setError(checked.error.issues[0].message);
    save.mutate(change);
  };
  const tokenSet = settings.data.mediaAccessTokenSet === true;
  return (
    <Stack gap="xs" maw={560} data-testid="media-access">
      <Text fw={600} size="sm">
        Medien mit Zugangstoken
      </Text>
      <Text size="sm" c="dimmed">
        Bilder und Dokumente, die der Server des Lieferanten nur mit Token herausgibt: Die Ausweichadresse wird zuerst
        versucht, danach die Adresse aus dem Katalog.
      </Text>
      <TextInput
        label="Ausweichadresse der Medien"
        placeholder="https://medien.lieferant.example/bilder/"
        value={fallback ?? settings.data.mediaFallbackBaseUrl ?? ''}
        onChange={(event) => setFallback(event.currentTarget.value)}
        error={error}
      />
      <PasswordInput
        label="Zugangstoken"
        description={tokenSet ? 'Ein Token ist hinterlegt. Leer lassen, um es zu behalten.' : 'Kein Token hinterlegt.'}
        value={token}
        onChange={(event) => setToken(event.currentTarget.value)}
        autoComplete="off"
      />
      <Group gap="sm">
        <Button variant="default" onClick={() => submit({})} loading={save.isPending}>
          Medienzugang speichern
        </Button>
        {tokenSet && (
          <Button variant="subtle" color="red" onClick={() => submit({ removeToken: true })}>
            Token entfernen
          </Button>
        )}
      </Group>
    </Stack>
  );
}
