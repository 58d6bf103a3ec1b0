import { Button, MantineProvider, Stack, Text, Title } from '@mantine/core';
import { theme } from './theme';

/** Shown when the API cannot even tell us how to sign in. */
export function StartupError() {
  return (
    <MantineProvider theme={theme}>
      <Stack p="xl" maw={560} mx="auto" mt="10vh" gap="md">
        <Title order={1}>Portal nicht erreichbar</Title>
        <Text>Das Portal ist zurzeit nicht erreichbar. Bitte versuchen Sie es später erneut.</Text>
        <Button onClick={() => window.location.reload()} w="fit-content">
          Erneut versuchen
        </Button>
      </Stack>
    </MantineProvider>
  );
}
