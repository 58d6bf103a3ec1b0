import { useEffect, useState } from 'react';
import { Alert, Button, Card, Checkbox, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { mailSettingLabels, type MailSettings } from '@shk/contracts';
import { profileApi } from '../../api/profile';
import { problemTitle } from '../../api/problem';
import { toast } from '../../ui/toast';

const keys = Object.keys(mailSettingLabels) as (keyof MailSettings)[];
const queryKey = ['profile', 'mail-settings'];

/** 'E-Mail-Benachrichtigungen' on 'Mein Profil': which mails about orders the user gets. */
export function MailSettingsCard({ email }: { email: string }) {
  const queryClient = useQueryClient();
  const current = useQuery({ queryKey, queryFn: profileApi.mailSettings });
  const [draft, setDraft] = useState<MailSettings | null>(null);
  useEffect(() => {
    if (current.data) setDraft(current.data);
  }, [current.data]);
  const save = useMutation({
    mutationFn: profileApi.saveMailSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKey, saved);
      toast.success('Ihre E-Mail-Einstellungen wurden gespeichert.');
    },
    onError: (error) => toast.error(problemTitle(error, 'Die E-Mail-Einstellungen konnten nicht gespeichert werden.')),
  });
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="profile-mails">
      <Title order={2} id="profile-mails" mb="xs">
        E-Mail-Benachrichtigungen
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Wir senden diese E-Mails an {email}.
      </Text>
      {current.isError && (
        <Alert color="red" variant="light">
          Die E-Mail-Einstellungen konnten nicht geladen werden.
        </Alert>
      )}
      {draft && (
        <Stack gap="sm">
          {keys.map((key) => (
            <Checkbox
              key={key}
              label={mailSettingLabels[key]}
              checked={draft[key]}
              onChange={(e) => {
                const checked = e.currentTarget.checked;
                setDraft((d) => (d ? { ...d, [key]: checked } : d));
              }}
            />
          ))}
          <Group>
            <Button onClick={() => save.mutate(draft)} loading={save.isPending}>
              Speichern
            </Button>
          </Group>
        </Stack>
      )}
    </Card>
  );
}
