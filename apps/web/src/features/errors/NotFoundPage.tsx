import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { Page } from '../../ui/Page';

export function NotFoundPage() {
  return (
    <Page title="Seite nicht gefunden">
      <Text>
        Die aufgerufene Seite existiert nicht.{' '}
        <Anchor component={Link} to="/">
          Zur Startseite
        </Anchor>
      </Text>
    </Page>
  );
}
