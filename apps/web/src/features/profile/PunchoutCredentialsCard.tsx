import { useEffect, useState } from 'react';
import { Button, Card, Code, Group, PasswordInput, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { punchoutTexts } from '@shk/contracts';
import { punchoutCredentialsApi } from '../../api/ids';
import { fieldErrors, problemTitle } from '../../api/problem';
import { toast } from '../../ui/toast';

interface Draft {
  ociEnabled: boolean;
  ociUsername: string;
  ociPassword: string;
  cxmlEnabled: boolean;
  cxmlDomain: string;
  cxmlIdentity: string;
  cxmlSharedSecret: string;
}

const orNull = (s: string) => (s.trim() ? s.trim() : null);

/**
 * The buyer's punchout logins for procurement systems (docs/punchout.md): OCI (user name and password) and cXML
 * (From identity and shared secret), each switched on or off. Password and shared secret are stored hashed only;
 * left empty they stay as they are.
 */
export function PunchoutCredentialsCard({ bpNumber }: { bpNumber: string }) {
  const queryClient = useQueryClient();
  const current = useQuery({ queryKey: ['punchout', 'credentials', bpNumber], queryFn: punchoutCredentialsApi.get });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (current.data)
      setDraft({
        ociEnabled: current.data.ociEnabled,
        ociUsername: current.data.ociUsername ?? '',
        ociPassword: '',
        cxmlEnabled: current.data.cxmlEnabled,
        cxmlDomain: current.data.cxmlDomain ?? 'NetworkId',
        cxmlIdentity: current.data.cxmlIdentity ?? '',
        cxmlSharedSecret: '',
      });
  }, [current.data]);
  const save = useMutation({
    mutationFn: (d: Draft) =>
      punchoutCredentialsApi.save({
        ociEnabled: d.ociEnabled,
        ociUsername: orNull(d.ociUsername),
        ociPassword: d.ociPassword || null,
        cxmlEnabled: d.cxmlEnabled,
        cxmlDomain: orNull(d.cxmlDomain),
        cxmlIdentity: orNull(d.cxmlIdentity),
        cxmlSharedSecret: d.cxmlSharedSecret || null,
      }),
    onSuccess: async () => {
      toast.success(punchoutTexts.credentialsSaved);
      setErrors({});
      await queryClient.invalidateQueries({ queryKey: ['punchout', 'credentials'] });
    },
    onError: (error) => {
      const fields = fieldErrors(error);
      if (Object.keys(fields).length) setErrors(fields);
      else toast.error(problemTitle(error, 'Speichern fehlgeschlagen'));
    },
  });
  if (!draft) return null;
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const origin = window.location.origin;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="profile-punchout">
      <Title order={2} id="profile-punchout" mb="xs">
        Punchout (OCI und cXML)
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Zugangsdaten für Ihr Einkaufssystem (SAP, Ariba, Coupa …) beim Geschäftspartner <Code>{bpNumber}</Code>.
      </Text>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate(draft);
        }}
      >
        <Stack gap="sm">
          <Switch
            label="OCI (SAP) eingeschaltet"
            checked={draft.ociEnabled}
            onChange={(e) => set({ ociEnabled: e.currentTarget.checked })}
          />
          <Text size="sm">
            Adresse: <Code>{`${origin}/oci`}</Code>
          </Text>
          <TextInput
            label="Benutzername (USERNAME)"
            value={draft.ociUsername}
            onChange={(e) => set({ ociUsername: e.currentTarget.value })}
            error={errors['body.ociUsername']}
          />
          <PasswordInput
            label="Passwort (PASSWORD)"
            description={current.data?.ociPasswordSet ? 'Gesetzt – leer lassen, um es zu behalten.' : undefined}
            autoComplete="new-password"
            value={draft.ociPassword}
            onChange={(e) => set({ ociPassword: e.currentTarget.value })}
            error={errors['body.ociPassword']}
          />
          <Switch
            label="cXML (Ariba, Coupa …) eingeschaltet"
            checked={draft.cxmlEnabled}
            onChange={(e) => set({ cxmlEnabled: e.currentTarget.checked })}
          />
          <Text size="sm">
            Adresse: <Code>{`${origin}/cxml/punchout`}</Code>
          </Text>
          <Group grow>
            <TextInput
              label="Domäne der Absenderkennung (cXML)"
              value={draft.cxmlDomain}
              onChange={(e) => set({ cxmlDomain: e.currentTarget.value })}
            />
            <TextInput
              label="Identität (Identity)"
              value={draft.cxmlIdentity}
              onChange={(e) => set({ cxmlIdentity: e.currentTarget.value })}
              error={errors['body.cxmlIdentity']}
            />
          </Group>
          <PasswordInput
            label="Shared Secret"
            description={current.data?.cxmlSecretSet ? 'Gesetzt – leer lassen, um es zu behalten.' : undefined}
            autoComplete="new-password"
            value={draft.cxmlSharedSecret}
            onChange={(e) => set({ cxmlSharedSecret: e.currentTarget.value })}
            error={errors['body.cxmlSharedSecret']}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              Zugangsdaten speichern
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
