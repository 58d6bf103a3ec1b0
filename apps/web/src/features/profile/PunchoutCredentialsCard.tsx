import { useEffect, useState } from 'react';
import {
  Button,
  Card,
  Code,
  Group,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  OCI_CUST_FIELD_MAX_LENGTHS,
  ociCustFieldSourceLabels,
  ociCustFieldSources,
  punchoutTexts,
  type OciCustFieldSource,
} from '@shk/contracts';
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
  /** OCI 5.0 CUST_FIELD1…5: what each carries and the fixed text where it carries one. */
  custFields: OciCustFieldSource[];
  custFieldValues: string[];
}

const CUST_FIELD_COUNT = OCI_CUST_FIELD_MAX_LENGTHS.length;
// The select needs a non-empty value for 'Nicht senden' (the API's '').
const NOT_SENT = 'none';
const sourceOptions = ociCustFieldSources.map((value) => ({
  value: value || NOT_SENT,
  label: ociCustFieldSourceLabels[value],
}));

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
        custFields: Array.from({ length: CUST_FIELD_COUNT }, (_, k) => current.data.ociCustFields[k] ?? ''),
        custFieldValues: Array.from({ length: CUST_FIELD_COUNT }, (_, k) => current.data.ociCustFieldValues[k] ?? ''),
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
        ociCustFields: d.custFields,
        ociCustFieldValues: d.custFields.map((source, k) => (source === 'fixed' ? d.custFieldValues[k] : '')),
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
          <Stack gap="xs" component="fieldset" style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
            <Text component="legend" fw={600} size="sm">
              OCI 5.0: Kundenfelder (NEW_ITEM-CUST_FIELD1…5)
            </Text>
            <Text size="xs" c="dimmed">
              Was Ihr Einkaufssystem je Position in den Kundenfeldern erhält, z. B. eine feste Kostenstelle oder das
              Projekt der Position. Werte werden auf die OCI-Feldlänge gekürzt.
            </Text>
            {draft.custFields.map((source, k) => (
              <SimpleGrid key={k} cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs">
                <Select
                  label={`Kundenfeld ${k + 1}`}
                  data={sourceOptions}
                  value={source || NOT_SENT}
                  allowDeselect={false}
                  data-testid={`cust-field-${k + 1}`}
                  onChange={(value) => {
                    const custFields = [...draft.custFields];
                    custFields[k] = (value === NOT_SENT ? '' : (value ?? '')) as OciCustFieldSource;
                    set({ custFields });
                  }}
                  comboboxProps={{ withinPortal: true }}
                />
                {source === 'fixed' && (
                  <TextInput
                    label={`Fester Wert (höchstens ${OCI_CUST_FIELD_MAX_LENGTHS[k]} Zeichen)`}
                    value={draft.custFieldValues[k]}
                    data-testid={`cust-field-value-${k + 1}`}
                    onChange={(e) => {
                      const custFieldValues = [...draft.custFieldValues];
                      custFieldValues[k] = e.currentTarget.value;
                      set({ custFieldValues });
                    }}
                    error={errors[`body.ociCustFieldValues.${k}`]}
                  />
                )}
              </SimpleGrid>
            ))}
          </Stack>
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
