import { Anchor, Container, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { portalOperator, PRODUCT_NAME, supportContact } from '@shk/contracts';
import { useConsent } from '../../ui/consent/use-consent';
import classes from './Footer.module.css';

const legalLinks = [
  { to: '/impressum', label: 'Impressum' },
  { to: '/datenschutz', label: 'Datenschutz' },
  { to: '/agb', label: 'AGB' },
  { to: '/cookie-declaration', label: 'Cookie-Erklärung' },
  { to: '/version', label: 'Version' },
];

/** The portal described as the wholesale company's digital order portal, contact links and legal links. */
export function Footer() {
  const { openSettings } = useConsent();
  return (
    // Explicit role: inside AppShell's <main> a <footer> would not be the page's contentinfo landmark.
    <footer className={classes.footer} role="contentinfo">
      <Container size="xl" py="xl">
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="xl">
          <Stack gap={4}>
            <Text fw={700}>{PRODUCT_NAME}</Text>
            <Text size="sm" c="dimmed">
              Das digitale Bestellportal der {portalOperator.name} – ein Zugang für Ihre Bestellungen bei Großhändlern
              und Herstellern aus Sanitär, Heizung und Klima.
            </Text>
          </Stack>
          <Stack gap={4}>
            <Text fw={700}>Kontakt</Text>
            <Text size="sm">
              Support:{' '}
              <Anchor href={`mailto:${supportContact.email}`} data-testid="support-email">
                {supportContact.email}
              </Anchor>
            </Text>
            <Text size="sm">
              Telefon:{' '}
              <Anchor href={`tel:${supportContact.phoneHref}`} data-testid="support-phone">
                {supportContact.phone}
              </Anchor>
            </Text>
            <Text size="xs" c="dimmed">
              {supportContact.hours}
            </Text>
          </Stack>
          <Stack gap={4}>
            <Text fw={700}>Rechtliches</Text>
            <Group gap="md" wrap="wrap">
              {legalLinks.map((link) => (
                <Anchor key={link.to} component={Link} to={link.to} size="sm">
                  {link.label}
                </Anchor>
              ))}
              <Anchor component="button" type="button" size="sm" onClick={openSettings}>
                Cookie-Einstellungen
              </Anchor>
            </Group>
          </Stack>
        </SimpleGrid>
        <Text size="xs" c="dimmed" mt="lg">
          © {new Date().getFullYear()} {portalOperator.name}
        </Text>
      </Container>
    </footer>
  );
}
