import { Text } from '@mantine/core';
import { Page } from './Page';

/** Stands in for a page another issue builds; keeps routes, guard and menus working meanwhile. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <Page title={title}>
      <Text c="dimmed">Dieser Bereich wird in Kürze freigeschaltet.</Text>
    </Page>
  );
}
