import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { messages, PRODUCT_NAME } from '@shk/contracts';
import { useSignIn } from '../../api/session';
import { usePageTitle } from '../../ui/page-title';

/** What the unauthenticated see on every protected route: 'Willkommen' and the 'Anmelden' button. */
export function WelcomePage({ returnTo }: { returnTo?: string }) {
  const signIn = useSignIn();
  usePageTitle(messages.welcome);
  return (
    <Paper withBorder shadow="sm" radius="md" p="xl" maw={560} mx="auto" mt="xl">
      <Stack gap="md" align="flex-start">
        <Title order={1}>{messages.welcome}</Title>
        <Text>
          Im {PRODUCT_NAME} bestellen Fachbetriebe aus Sanitär, Heizung und Klima mit einem Zugang bei vielen
          Großhändlern und Herstellern.
        </Text>
        <Text c="dimmed" size="sm">
          Bitte melden Sie sich mit Ihrer E-Mail-Adresse und Ihrem Passwort an.
        </Text>
        <Button size="md" onClick={() => void signIn(returnTo)}>
          {messages.login}
        </Button>
      </Stack>
    </Paper>
  );
}
