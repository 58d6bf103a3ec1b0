import { Anchor, Paper, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { messages } from '@shk/contracts';
import { useUserProfile } from '../../../api/session';
import { Page } from '../../../ui/Page';
import { searchUrl } from '../../../ui/search-url';

/**
 * Not-found states of /produkt: 'Artikelnummer {x} nicht gefunden.' with a hint and 'Neue Suche starten'
 * (hidden in a procurement-integration context), or 'Produkt nicht gefunden'.
 */
export function ProductNotFound({ articleNumber }: { articleNumber?: string | null }) {
  const inIdsContext = Boolean(useUserProfile().data?.idsContextId);
  return (
    <Page title="Produkt">
      <Paper withBorder radius="md" p="xl" data-testid="product-not-found">
        <Stack gap="sm">
          {articleNumber ? (
            <>
              <Text fw={700} size="lg">
                {messages.articleNotFound(articleNumber)}
              </Text>
              <Text size="sm" c="dimmed">
                Bitte prüfen Sie die Werksartikelnummer (Herstellerartikelnummer) oder die GTIN/EAN des Artikels.
              </Text>
            </>
          ) : (
            <Text fw={700} size="lg">
              {messages.productNotFound}
            </Text>
          )}
          {!inIdsContext && (
            <Anchor component={Link} to={searchUrl({ page: 1 })} fw={600}>
              {messages.startNewSearch}
            </Anchor>
          )}
        </Stack>
      </Paper>
    </Page>
  );
}
