import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { hasStatus } from '../../api/problem';
import { useSignOut } from '../../api/session';
import { usePageTitle } from '../../ui/page-title';

/**
 * Shown when the profile cannot be loaded. Two variants: the account is not set up in the portal (403)
 * or loading failed for another reason. Both offer the way out: 'Abmelden'.
 */
export function AccessDeniedPage({ error }: { error: unknown }) {
  const signOut = useSignOut();
  const notRegistered = hasStatus(error, 403);
  usePageTitle('Zugriff verweigert');
  return (
    <Stack gap="md" maw={640}>
      <Title order={1}>Zugriff verweigert</Title>
      <Alert color="red" variant="light" title={notRegistered ? 'Kein Zugang zum Portal' : 'Profil nicht verfügbar'}>
        {notRegistered
          ? 'Für Ihr Konto ist im Portal kein Benutzer angelegt. Bitte wenden Sie sich an den Support.'
          : 'Ihr Benutzerprofil konnte nicht geladen werden. Bitte versuchen Sie es später erneut.'}
      </Alert>
      <Text>
        <Anchor component="button" type="button" onClick={() => void signOut()}>
          Abmelden
        </Anchor>
      </Text>
    </Stack>
  );
}
