import { Anchor, List, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { messages } from '@shk/contracts';
import { Page } from '../../ui/Page';

/** /unauthorized: a sign-in from a procurement system or another entry failed. */
export default function UnauthorizedPage() {
  return (
    <Page title={messages.unauthorizedTitle}>
      <Stack gap="sm" maw={720}>
        <Text>Sie konnten nicht angemeldet werden. Bitte überprüfen Sie:</Text>
        <List>
          <List.Item>Ihre Kundennummer (Geschäftspartnernummer),</List.Item>
          <List.Item>Ihren Benutzernamen (E-Mail-Adresse) und</List.Item>
          <List.Item>Ihr Passwort.</List.Item>
        </List>
        <Text>
          Besteht das Problem weiterhin, wenden Sie sich bitte an den Support.{' '}
          <Anchor component={Link} to="/">
            Zur Startseite
          </Anchor>
        </Text>
      </Stack>
    </Page>
  );
}
