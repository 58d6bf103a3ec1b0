import { Navigate } from 'react-router';
import { useAuth } from '../../api/auth';
import { Button, Stack, Text, Title } from '@mantine/core';
import { useSignIn, useUserProfile, type SignInState } from '../../api/session';
import { usePageTitle } from '../../ui/page-title';
import { FullPageLoader } from '../../ui/FullPageLoader';
import { AccessDeniedPage } from '../../features/errors/AccessDeniedPage';
import { landingPath } from './landing';

/** /auth-callback: after the identity provider, wait for the profile and send the user to the role's landing page. */
export function LoginLanding() {
  const auth = useAuth();
  const profile = useUserProfile();
  const signIn = useSignIn();
  usePageTitle('Anmelden');

  if (auth.error && !auth.isAuthenticated) {
    return (
      <Stack align="flex-start" gap="md">
        <Title order={1}>Anmeldung fehlgeschlagen</Title>
        <Text>Die Anmeldung konnte nicht abgeschlossen werden. Bitte versuchen Sie es erneut.</Text>
        <Button onClick={() => void signIn()}>Anmelden</Button>
      </Stack>
    );
  }
  if (auth.isLoading) return <FullPageLoader />;
  if (!auth.isAuthenticated) return <Navigate to="/" replace />;
  if (profile.isPending) return <FullPageLoader />;
  if (profile.isError) return <AccessDeniedPage error={profile.error} />;
  const returnTo = (auth.user?.state as SignInState | undefined)?.returnTo;
  return <Navigate to={landingPath(profile.data.role, returnTo)} replace />;
}
